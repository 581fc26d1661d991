package samples

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// tinyMemJob is TP1 PP4 DP1 with m=6 microbatches, memory on.
func tinyMemJob(t *testing.T, schedule string) *Job {
	t.Helper()
	c := DefaultConfig()
	c.TP, c.DP, c.PP, c.Microbatches, c.Steps, c.Schedule = 1, 1, 4, 6, 2, schedule
	c.MemoryEvents, c.ActMemBytes, c.StaticMemBytes = true, 1<<30, 1<<20
	job, err := Simulate(c)
	if err != nil {
		t.Fatal(err)
	}
	return job
}

// By hand: GPipe runs every forward before any backward, so stage s holds
// all m microbatches; 1F1B's stage s runs p−s warm-up forwards, then one
// forward per backward, so it holds at most p−s.
func TestPeakActivationsFollowSchedule(t *testing.T) {
	for _, tc := range []struct {
		schedule string
		want     func(stage int) float64
	}{
		{ScheduleGPipe, func(int) float64 { return 6 }},
		{Schedule1F1B, func(s int) float64 { return float64(4 - s) }},
	} {
		job := tinyMemJob(t, tc.schedule)
		for _, st := range job.Truth.Stages {
			if st.PeakMicrobatches != tc.want(st.Stage) {
				t.Errorf("%s stage %d: peak holds %v microbatches, want %v", tc.schedule, st.Stage, st.PeakMicrobatches, tc.want(st.Stage))
			}
			static := int64(1<<20) * 2
			if want := static + int64(tc.want(st.Stage)*2*(1<<30)); st.PeakMemBytes != want {
				t.Errorf("%s stage %d: peak %d bytes, want %d", tc.schedule, st.Stage, st.PeakMemBytes, want)
			}
		}
	}
}

func TestMemoryCountersMatchTruth(t *testing.T) {
	job := tinyMemJob(t, ScheduleGPipe)
	if err := job.Trace.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, r := range job.Truth.Ranks {
		peak, ok := job.Trace.CounterPeak(int32(r.Rank), model.CounterMemAllocated, -1<<62, 1<<62)
		if !ok || peak != r.PeakMemBytes {
			t.Errorf("rank %d: counters peak %d (%v), truth %d", r.Rank, peak, ok, r.PeakMemBytes)
		}
	}
}

func TestNoMemoryByDefault(t *testing.T) {
	job, err := Simulate(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if job.Trace.Counters.Len() != 0 || job.Truth.Ranks[0].PeakMemBytes != 0 {
		t.Fatalf("default job has %d counters, peak %d", job.Trace.Counters.Len(), job.Truth.Ranks[0].PeakMemBytes)
	}
}
