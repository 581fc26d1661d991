package diagnose

import (
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// TestRemediesFitTheJob: the bubble remedy of an interleaved job raises m
// or v; a DP sync mostly under compute is told buckets and network; a job
// without a pipeline gets the generic DP remedy, or FSDP/ZeRO prefetch when
// its DP collectives are mostly reduce-scatter and all-gather; with a
// pipeline and no overlap the Megatron-worded remedy stays.
func TestRemediesFitTheJob(t *testing.T) {
	pp4 := &result.Result{Layout: result.Layout{PP: 4}, Schedule: "1f1b"}
	inter := &result.Result{Layout: result.Layout{PP: 4}, Schedule: "interleaved", VirtualStages: 2}
	pp1 := &result.Result{Layout: result.Layout{PP: 1, DP: 8}}
	fsdp := &result.Result{Layout: result.Layout{PP: 1, DP: 8}, Comms: []result.CommStats{{Axis: "DP", Links: []result.LinkFit{
		{Op: "all_gather", Count: 40}, {Op: "reduce_scatter", Count: 20}, {Op: "all_reduce", Count: 2}}}}}
	for _, c := range []struct {
		name, got, want, not string
	}{
		{"1f1b bubble", bubbleRemedy(figuresOf(pp4)), "use an interleaved schedule", ""},
		{"interleaved bubble", bubbleRemedy(figuresOf(inter)), "model chunks per stage (v)", "use an interleaved"},
		{"pp4 DP exposed", exposedRemedy(figuresOf(pp4), "DP", 9, 10), "overlap_grad_reduce", "already"},
		{"pp4 DP overlapped", exposedRemedy(figuresOf(pp4), "DP", 3, 10), "already overlaps", "overlap the DP gradient sync"},
		{"pp1 DP", exposedRemedy(figuresOf(pp1), "DP", 10, 10), "DDP bucketing / overlap_grad_reduce", "pipeline"},
		{"pp1 FSDP", exposedRemedy(figuresOf(fsdp), "DP", 10, 10), "FSDP forward/backward prefetch", "overlap_grad_reduce"},
		{"A2A", exposedRemedy(figuresOf(pp1), "A2A", 10, 10), "embedding exchange", "gradient"},
	} {
		if !strings.Contains(c.got, c.want) || c.not != "" && strings.Contains(c.got, c.not) {
			t.Errorf("%s: remedy %q; want %q, not %q", c.name, c.got, c.want, c.not)
		}
	}
}
