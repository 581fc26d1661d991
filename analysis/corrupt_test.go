package analysis_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// hostileStarts are start times a corrupt input could still carry after
// the readers' limits: far before and after the rest of the trace.
var hostileStarts = []int64{-1 << 62, -7 << 60, 1 << 62, -1, 0, 1 << 40}

// TestCorruptTimesNeverPanic is a property test: over several generator
// scenarios, random events get hostile start times and durations; the
// analysis may refuse the trace but must never panic (an unchecked -1
// index once did, in measure.Collectives).
func TestCorruptTimesNeverPanic(t *testing.T) {
	for _, name := range []string{"default", "slow-rank", "p2p-nometa", "late-rank"} {
		job := sampletest.Job(t, name)
		for seed := uint64(1); seed <= 4; seed++ {
			tr := cloneTimes(job.Trace)
			corruptTimes(tr, rand.New(rand.NewPCG(seed, 7)))
			analysis.Analyze(context.Background(), tr, analysis.Options{})
		}
	}
}

// cloneTimes copies the trace with its own Start and Dur columns.
func cloneTimes(src *model.Trace) *model.Trace {
	tr := *src
	tr.Events.Start = append([]int64(nil), src.Events.Start...)
	tr.Events.Dur = append([]int64(nil), src.Events.Dur...)
	return &tr
}

func corruptTimes(tr *model.Trace, rng *rand.Rand) {
	n := tr.Events.Len()
	for k := 0; k < 1+n/200; k++ {
		i := rng.IntN(n)
		tr.Events.Start[i] = hostileStarts[rng.IntN(len(hostileStarts))]
		if rng.IntN(3) == 0 {
			tr.Events.Dur[i] = 1 << 59
		}
	}
	// every event of one rank about 2^63 ns in the past, as an nsys export
	// with a negative session start once wrapped the others' clocks
	r := tr.Events.Rank[rng.IntN(n)]
	for i := 0; i < n; i++ {
		if tr.Events.Rank[i] == r {
			tr.Events.Start[i] = tr.Events.Start[i]/2 - 7<<60
		}
	}
	tr.Events.Sort()
}
