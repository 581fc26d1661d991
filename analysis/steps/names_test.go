package steps

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

func TestStepLikeNames(t *testing.T) {
	cases := []struct {
		name   string
		family string
		n      int32
		ok     bool
	}{
		{"ProfilerStep#12", "ProfilerStep", 12, true},
		{"train_step", "train_step", -1, true},
		{"train_step 3", "train_step", 3, true},
		{"Train_Step_7", "train_step", 7, true},
		{"trainstep#2", "train_step", 2, true},
		{"iteration 40", "iteration", 40, true},
		{"Iteration_40", "iteration", 40, true},
		{"step 5", "step", 5, true},
		{"step_5", "step", 5, true},
		{"STEP5", "step", 5, true},
		{"Megatron:train_step 9", "train_step", 9, true},
		{"iteration", "", 0, false}, // a bare common word
		{"step", "", 0, false},
		{"forward_step#3", "", 0, false},
		{"backward_step#0", "", 0, false},
		{"Optimizer.step#AdamW.step", "", 0, false},
		{"train_step iter=1", "", 0, false},
		{"NCCL:ncclAllReduce", "", 0, false},
		{"step 99999999999", "", 0, false}, // no int32
	}
	for _, c := range cases {
		f, n, ok := StepLike(c.name)
		if f != c.family || n != c.n || ok != c.ok {
			t.Errorf("StepLike(%q) = %q %d %v, want %q %d %v", c.name, f, n, ok, c.family, c.n, c.ok)
		}
	}
}

// namedSteps builds 2 ranks × steps 1..3, each step's range named by label.
func namedSteps(labels ...func(k int) string) *model.Trace {
	j := newStepJob(2)
	for r := range 2 {
		for k := 1; k <= 3; k++ {
			j.step(r, k, labels[0](k))
			for _, l := range labels[1:] {
				j.add(int32(r), model.KindAnnotation, l(k), start(r, k)+1_000, stepBusy-2_000, -1)
			}
		}
	}
	return j.done()
}

func TestFindStepLikeWithoutFlag(t *testing.T) {
	cases := []struct {
		labels []func(int) string
		method string
		from   string
		iters  []int32
	}{
		{[]func(int) string{func(k int) string { return fmt.Sprintf("train_step %d", k) }}, "annotation", "annotations:train_step", []int32{1, 2, 3}},
		{[]func(int) string{func(k int) string { return fmt.Sprintf("Iteration_%d", k+40) }}, "annotation", "annotations:iteration", []int32{41, 42, 43}},
		{[]func(int) string{func(int) string { return "train_step" }}, "annotation", "annotations:train_step", []int32{0, 1, 2}},
		// Nested families: ProfilerStep is preferred, then train_step.
		{[]func(int) string{func(k int) string { return fmt.Sprintf("step %d", k+100) }, stepName}, "profiler-step", "annotations:ProfilerStep", []int32{1, 2, 3}},
		{[]func(int) string{func(k int) string { return fmt.Sprintf("step_%d", k+100) }, func(k int) string { return fmt.Sprintf("train_step %d", k) }}, "annotation", "annotations:train_step", []int32{1, 2, 3}},
	}
	for _, c := range cases {
		s, _ := Find(namedSteps(c.labels...), nil)
		if s.Method != c.method || s.From != c.from || !slices.Equal(s.Iters, c.iters) {
			t.Errorf("%s: %q %q %v, want %q %q %v", c.labels[0](1), s.Method, s.From, s.Iters, c.method, c.from, c.iters)
		}
	}
}

// TestFindRegexOverridesStepLike: --step-regex wins over step-like names.
func TestFindRegexOverridesStepLike(t *testing.T) {
	tr := namedSteps(stepName, func(k int) string { return fmt.Sprintf("my_iter(%d)", k+20) })
	s, _ := Find(tr, regexp.MustCompile(`^my_iter\((\d+)\)$`))
	if s.Method != "regex" || s.From != "step-regex" || !slices.Equal(s.Iters, []int32{21, 22, 23}) {
		t.Fatalf("%q %q %v, want regex step-regex [21 22 23]", s.Method, s.From, s.Iters)
	}
}

// TestFindPeriodEndsAtHostSync: with a host synchronisation after each
// step's DP burst (and the optimizer kernel after the burst), each window
// ends at the end of that sync, not at the burst.
func TestFindPeriodEndsAtHostSync(t *testing.T) {
	j := newStepJob(2)
	for r := range 2 {
		for k := 0; k < 4; k++ {
			j.step(r, k, "")
			s := start(r, k)
			j.launch(r, s+700_000, s+810_000, 40_000) // the optimizer
			j.add(int32(r), model.KindRuntime, "cudaDeviceSynchronize", s+710_000, 150_000, -1)
		}
	}
	s, _ := Find(j.done(), nil)
	if s.Method != "period" || s.From != "dp-sync-period" || !slices.Equal(s.Iters, []int32{1, 2, 3}) {
		t.Fatalf("%q %q %v, want period dp-sync-period [1 2 3]", s.Method, s.From, s.Iters)
	}
	for r := range 2 {
		w := s.ByRank[int32(r)][0]
		if w.Start != start(r, 0)+860_000 || w.End != start(r, 1)+860_000 {
			t.Errorf("rank %d: window %+v, want [%d, %d)", r, w, start(r, 0)+860_000, start(r, 1)+860_000)
		}
	}
}
