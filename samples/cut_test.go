package samples

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestCutLastStep: truth keeps the complete steps only; on the upper half
// of the ranks the last ProfilerStep window exists but a kernel launched in
// it is missing or runs past its end; the other ranks are whole; the
// figures of the complete steps equal those of the uncut run.
func TestCutLastStep(t *testing.T) {
	j := scenarioJob(t, "cut-last-step")
	c := j.Config
	if want := []int{10, 11, 12}; !slices.Equal(j.Truth.Steps, want) {
		t.Fatalf("truth steps %v, want %v", j.Truth.Steps, want)
	}
	last := fmt.Sprintf(StepFmt, c.FirstStep+c.Steps-1)
	for r := range c.World() {
		w, ok := window(j.Trace, int32(r), last)
		if !ok {
			t.Fatalf("rank %d has no %s window", r, last)
		}
		if cut := cutShort(j.Trace, int32(r), w); cut != (r >= c.World()/2) {
			t.Errorf("rank %d: last step cut short %v, want %v", r, cut, r >= c.World()/2)
		}
	}
	whole := c
	whole.CutLastStep = false
	ref, err := Simulate(whole)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := j.Truth.Ranks[9], ref.Truth.Ranks[9]; got.ComputeNs == want.ComputeNs {
		t.Errorf("rank 9 compute %d is the mean over all %d steps; the cut one must be left out", got.ComputeNs, c.Steps)
	}
}

// window returns rank r's annotation named name.
func window(tr *model.Trace, r int32, name string) ([2]int64, bool) {
	lo, hi := tr.Events.RankRange(r)
	for i := lo; i < hi; i++ {
		if tr.Events.Kind[i] == model.KindAnnotation && tr.Name(i) == name {
			return [2]int64{tr.Events.Start[i], tr.Events.Start[i] + tr.Events.Dur[i]}, true
		}
	}
	return [2]int64{}, false
}

// cutShort reports whether a kernel launched inside w is missing or a
// kernel of w runs past its end.
func cutShort(tr *model.Trace, r int32, w [2]int64) bool {
	ev := &tr.Events
	lo, hi := ev.RankRange(r)
	launched := map[int64]bool{}
	for i := lo; i < hi; i++ {
		if ev.Kind[i] == model.KindRuntime && ev.Corr[i] >= 0 && ev.Start[i] >= w[0] && ev.Start[i] < w[1] && tr.Name(i) != syncName {
			launched[ev.Corr[i]] = true
		}
	}
	for i := lo; i < hi; i++ {
		if ev.Kind[i].OnGPU() && launched[ev.Corr[i]] {
			delete(launched, ev.Corr[i])
			if ev.Start[i]+ev.Dur[i] > w[1] {
				return true
			}
		}
	}
	return len(launched) > 0
}
