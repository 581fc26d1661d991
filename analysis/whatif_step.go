package analysis

import (
	"context"
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/whatif"
	"github.com/tpptrace/tpptrace/ingest/model"
)

// WhatIfGraph runs the steps the replay needs (classify, align, segment)
// on t and builds its op graph (analysis/whatif.FromTrace).
func WhatIfGraph(ctx context.Context, t *model.Trace, opts Options) (*whatif.Graph, error) {
	r := &run{t: t, opts: opts, res: newResult(t, opts)}
	for _, s := range Steps[:3] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := s.Run(r); err != nil {
			return nil, fmt.Errorf("analysis: %s: %w", s.Name, err)
		}
	}
	in := whatif.TraceInput{Trace: t, Instances: r.inst, Offset: r.off.Of, Iters: r.steps.Iters}
	for _, it := range r.res.Iterations {
		in.IterStart = append(in.IterStart, it.StartNs)
	}
	g, err := whatif.FromTrace(in)
	if err != nil {
		return nil, fmt.Errorf("analysis: whatif: %w", err)
	}
	return g, nil
}
