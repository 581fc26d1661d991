package steps

import (
	"regexp"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

func TestFindProfilerStepWindows(t *testing.T) {
	j := newStepJob(2)
	for r := range 2 {
		for k := 5; k <= 8; k++ {
			j.step(r, k, stepName(k))
		}
	}
	// Launched late in step 6 on rank 1, runs after the window's end: it
	// belongs to step 6 through its launch.
	j.launch(1, start(1, 6)+stepBusy-1_000, start(1, 6)+stepBusy+20_000, 10_000)
	tr := j.done()
	s, err := Find(tr, nil)
	if err != nil || s.Method != "profiler-step" || !slices.Equal(s.Iters, []int32{5, 6, 7, 8}) {
		t.Fatalf("Find = %v %q iters %v, want profiler-step 5..8", err, s.Method, s.Iters)
	}
	if w := s.ByRank[1][1]; w.Iter != 6 || w.Start != start(1, 6) || w.End != start(1, 6)+stepBusy {
		t.Errorf("rank 1 window 6 = %+v", w)
	}
	for i := 0; i < tr.Events.Len(); i++ {
		if tr.Events.Rank[i] == 1 && tr.Events.Start[i] == start(1, 6)+stepBusy+20_000 && tr.Events.Iter[i] != 6 {
			t.Errorf("late kernel of step 6 got iter %d", tr.Events.Iter[i])
		}
		if tr.Events.Kind[i] == model.KindComm && tr.Events.Iter[i] < 5 {
			t.Errorf("all-reduce at %d got no iteration", tr.Events.Start[i])
		}
	}
}

func TestFindDropsIncompleteFirstAndLast(t *testing.T) {
	j := newStepJob(2)
	for r := range 2 {
		for k := 5; k <= 8; k++ {
			if r == 1 && k == 5 { // rank 1's profiler started one step later
				continue
			}
			j.step(r, k, stepName(k))
		}
	}
	// Capture ended during step 8 on rank 0: a kernel it launched is missing.
	j.launch(0, start(0, 8)+700_000, 0, -1)
	tr := j.done()
	s, _ := Find(tr, nil)
	if !slices.Equal(s.Iters, []int32{6, 7}) || !slices.Equal(s.Dropped, []int32{5, 8}) {
		t.Fatalf("iters %v dropped %v, want [6 7] and [5 8]", s.Iters, s.Dropped)
	}
	if len(s.ByRank[0]) != 2 || s.ByRank[0][0].Iter != 6 {
		t.Errorf("rank 0 windows %+v", s.ByRank[0])
	}
	for i := 0; i < tr.Events.Len(); i++ {
		if tr.Events.Start[i] >= start(0, 8) && tr.Events.Iter[i] != -1 {
			t.Fatalf("event in dropped step 8 labelled %d", tr.Events.Iter[i])
		}
	}
}

func TestFindDropsLastWhenGPUWorkRunsPastCapture(t *testing.T) {
	j := newStepJob(2)
	for r := range 2 {
		for k := 1; k <= 3; k++ {
			j.step(r, k, stepName(k))
		}
	}
	// Rank 1's last step: its kernel is clipped at the capture end.
	j.launch(1, start(1, 3)+800_000, start(1, 3)+850_000, stepBusy-850_000)
	s, _ := Find(j.done(), nil)
	if !slices.Equal(s.Iters, []int32{1, 2}) || !slices.Equal(s.Dropped, []int32{3}) {
		t.Fatalf("iters %v dropped %v, want [1 2] and [3]", s.Iters, s.Dropped)
	}
}

func TestFindRegex(t *testing.T) {
	j := newStepJob(2)
	for r := range 2 {
		for k := 1; k <= 3; k++ {
			j.step(r, k, "train_step iter="+string(rune('0'+k)))
			j.add(int32(r), model.KindAnnotation, "forward", start(r, k)+1, 100, -1)
		}
	}
	tr := j.done()
	for _, re := range []string{`^train_step`, `iter=(\d)`} {
		s, _ := Find(tr, regexp.MustCompile(re))
		if s.Method != "regex" || !slices.Equal(s.Iters, []int32{1, 2, 3}) {
			t.Errorf("%s: method %q iters %v, want regex 1..3", re, s.Method, s.Iters)
		}
	}
	if s, _ := Find(tr, regexp.MustCompile(`nothing`)); s.Method != "period" {
		t.Errorf("a regex matching nothing should fall back, got %q", s.Method)
	}
}

func TestFindPeriodFallback(t *testing.T) {
	j := newStepJob(3)
	for r := range 3 {
		for k := 0; k < 5; k++ {
			j.step(r, k, "")
		}
	}
	tr := j.done()
	s, _ := Find(tr, nil)
	if s.Method != "period" || !slices.Equal(s.Iters, []int32{1, 2, 3, 4}) {
		t.Fatalf("method %q iters %v, want period 1..4", s.Method, s.Iters)
	}
	for r := range 3 {
		w := s.ByRank[int32(r)][1] // iteration 2: from the end of step 1's all-reduce to the end of step 2's
		if w.Start != start(r, 1)+800_000 || w.End != start(r, 2)+800_000 {
			t.Errorf("rank %d window %+v", r, w)
		}
	}
}

func TestFindWholeWithoutSignals(t *testing.T) {
	j := newStepJob(2)
	j.tr.Comms[0].Axis = model.AxisUnknown
	for r := range 2 {
		j.step(r, 0, "")
	}
	s, _ := Find(j.done(), nil)
	if s.Method != "whole" || len(s.Iters) != 1 || s.ByRank[1][0].End != start(1, 0)+800_000 {
		t.Fatalf("got %q %v %+v, want one whole-trace window", s.Method, s.Iters, s.ByRank[1])
	}
}

// TestFindKernelPeriod: without step ranges or a labelled sync, a kernel
// that runs once per step delimits the steps (the first is incomplete).
func TestFindKernelPeriod(t *testing.T) {
	j := newStepJob(2)
	j.tr.Comms[0].Axis = model.AxisUnknown
	for r := range 2 {
		for k := range 3 {
			j.step(r, k, "")
		}
	}
	s, _ := Find(j.done(), nil)
	if s.Method != "period" || s.From != "kernel-period" || !slices.Equal(s.Iters, []int32{1, 2}) {
		t.Fatalf("got %q from %q iters %v, want the kernel period's steps 1, 2", s.Method, s.From, s.Iters)
	}
}
