package analysis

import (
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/analysis/whatif"
	"github.com/tpptrace/tpptrace/model"
)

// AnalyzeOpTable analyses a per-worker op table (`trace-*.parquet`): an op
// table has no kernels, streams or communicators, so the Result holds the
// layout, the steps and the what-if replay only. source names the file.
func AnalyzeOpTable(t *model.OpTable, source string, opts Options) (*result.Result, error) {
	g, err := whatif.FromOpTable(t)
	if err != nil {
		return nil, fmt.Errorf("analysis: %s: %w", source, err)
	}
	rep, preds, paths := whatif.Run(g, whatif.Defaults(g, -1))
	res := &result.Result{SchemaVersion: result.SchemaVersion, SchemaMinor: result.SchemaMinor, Tool: opts.Tool, BottleneckStage: -1,
		Sources: []result.Source{{Path: source, Format: "op-table"}}, WorldSize: len(g.Workers),
		Schedule: "unknown", WhatIf: whatif.Summary(g, rep, preds, paths)}
	for _, w := range g.Workers {
		res.Layout.PP, res.Layout.DP = max(res.Layout.PP, int(w.Stage)+1), max(res.Layout.DP, int(w.DP)+1)
	}
	res.Layout.TP, res.Layout.Order, res.Layout.By = 1, "per worker", "op-table"
	var at int64
	for i, s := range g.Steps {
		d := int64(rep.StepTrace[i]*1e9 + 0.5)
		res.Iterations = append(res.Iterations, result.Iteration{Index: int(s), StartNs: at, DurationNs: d})
		at += d
	}
	res.StepNs = meanStep(res.Iterations)
	res.Warnings = append(res.Warnings, "an op table (one row per op of each worker, TP peers collapsed) holds no kernels: only the what-if replay is analysed")
	return res, nil
}
