package analysis

import (
	"context"

	"github.com/tpptrace/tpptrace/analysis/clock"
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// Detail is what an analysis knows beyond its Result, for views that
// explore single events (the TUI): the classified timeline of every step,
// the clock offsets and every matched collective with its members' waits.
// Views render it; they never recompute it.
type Detail struct {
	Timelines []*result.Timeline // one per Result.Iterations entry, aligned clock
	Offsets   clock.Offsets      // rank's clock − rank 0's clock
	Timings   measure.Timings    // every timed collective instance and, flat, its members
	Stage     map[int32]int      // rank -> pipeline stage
}

// AnalyzeDetail is Analyze that also returns the Detail.
func AnalyzeDetail(ctx context.Context, t *model.Trace, opts Options) (*result.Result, *Detail, error) {
	r, err := analyze(ctx, t, opts)
	if err != nil {
		return nil, nil, err
	}
	d := &Detail{Offsets: r.off, Timings: r.tm, Stage: map[int32]int{}}
	for k := range r.prep.iters {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		d.Timelines = append(d.Timelines, r.timeline(k))
	}
	for _, rr := range r.ranks {
		d.Stage[rr.rank] = rr.stage
	}
	return r.res, d, nil
}
