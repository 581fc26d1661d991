package samples

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestDPOverlapBucketsInLastBackward: with DPOverlap the gradient buckets
// are launched during the last microbatch's backward and annotated with
// it: no pass annotation names microbatch -1, and every rank has exactly
// one forward_step#i and one backward_step#i per step (the buckets do not
// cut the last backward's annotation in pieces).
func TestDPOverlapBucketsInLastBackward(t *testing.T) {
	cfg, err := Lookup("dp-overlap")
	if err != nil {
		t.Fatal(err)
	}
	job, err := Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr := job.Trace
	counts := map[string]int{} // "rank name" → annotations
	for i := range tr.Events.Len() {
		name := tr.Name(i)
		if tr.Events.Kind[i] != model.KindAnnotation || !strings.Contains(name, "ward_step#") {
			continue
		}
		if strings.Contains(name, "#-") {
			t.Fatalf("rank %d: annotation %q names no microbatch", tr.Events.Rank[i], name)
		}
		counts[fmt.Sprint(tr.Events.Rank[i], " ", name)]++
	}
	for r := range cfg.World() {
		for m := range cfg.Microbatches {
			for _, f := range []string{ForwardFmt, BackwardFmt} {
				key := fmt.Sprint(r, " ", fmt.Sprintf(f, m))
				if counts[key] != cfg.Steps {
					t.Errorf("rank %d: %d × %s, want one per step (%d)", r, counts[key], fmt.Sprintf(f, m), cfg.Steps)
				}
			}
		}
	}
}
