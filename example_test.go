package tpptrace_test

import (
	"context"
	"fmt"
	"log"

	"github.com/tpptrace/tpptrace"
	"github.com/tpptrace/tpptrace/report/gate"
)

// Example reads the bundled 16-rank job (Kineto traces), analyses it and
// gates it as `tpptrace analyze --fail-on bubble:20% samples/default` does.
func Example() {
	ctx := context.Background()
	tr, err := tpptrace.Open(ctx, []string{"samples/default"}, tpptrace.Options{NoCache: true})
	if err != nil {
		log.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.Analyze(ctx, tpptrace.AnalyzeOptions{})
	if err != nil {
		log.Fatal(err)
	}
	l := res.Layout
	fmt.Printf("%d ranks, TP%d PP%d DP%d, schedule %s m=%d, %d steps\n", res.WorldSize, l.TP, l.PP, l.DP, res.Schedule, res.Microbatches, len(res.Iterations))
	fmt.Println("slow rank:", res.SlowRanks[0].Rank)

	var gates gate.FailOns
	if err := gates.Set("bubble:20%"); err != nil {
		log.Fatal(err)
	}
	if f, failed := gates.First(res); failed {
		fmt.Printf("gate %s failed on a %s finding\n", f.Gate, f.Finding.Kind)
	}
	// Output:
	// 16 ranks, TP2 PP4 DP2, schedule 1f1b m=8, 4 steps
	// slow rank: 5
	// gate pipeline_bubble:20% failed on a pipeline_bubble finding
}

// ExampleOptions_sample analyses a bundled simulated scenario, as
// `tpptrace analyze --sample slow-rank` does, with a layout given rather
// than inferred (--tp 2 --pp 2 --dp 2).
func ExampleOptions_sample() {
	ctx := context.Background()
	tr, err := tpptrace.Open(ctx, nil, tpptrace.Options{Sample: "slow-rank"})
	if err != nil {
		log.Fatal(err)
	}
	opts := tpptrace.AnalyzeOptions{}
	opts.Layout.TP, opts.Layout.PP, opts.Layout.DP = 2, 2, 2
	res, err := tr.Analyze(ctx, opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d ranks, layout by %s, slow rank %d\n", res.WorldSize, res.Layout.By, res.SlowRanks[0].Rank)
	// Output:
	// 8 ranks, layout by flags, slow rank 3
}
