package inspector

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// readInspector reads Inspector files: ranks and communicators from every
// record, and from verbose records (event_trace_ts) timed KindComm events
// in a Fallback trace on the host wall clock (ClockBase 0, epoch ns), so
// that a Kineto or nsys timeline of a rank replaces them on Merge.
func readInspector(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	var recs []InspectorRecord
	var skips []model.Skip
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rs, sk, err := readInspectorFile(p, opts.MaxMemory)
		if err != nil {
			return nil, err
		}
		skips = append(skips, sk...)
		recs = append(recs, rs...)
	}
	t := inspectorTrace(recs, paths)
	t.Skipped = append(t.Skipped, skips...)
	return t, nil
}

// inspectorTrace builds the trace of records read from paths.
func inspectorTrace(recs []InspectorRecord, paths []string) *model.Trace {
	views := make([]nccl.CommView, 0, len(recs))
	for _, r := range recs {
		views = append(views, nccl.CommView{ID: nccl.HexKey(r.CommID), Name: r.CommName, Host: r.Host, PID: r.PID, Rank: r.Rank, NRanks: r.NRanks})
	}
	t := nccl.ViewsTrace(views, "nccl-inspector", paths)
	addInspectorEvents(t, recs, newInspectorIndex(t, views))
	t.Events.Sort()
	t.Fallback = t.Events.Len() > 0
	return t
}

func readInspectorFile(p string, maxMem int64) ([]InspectorRecord, []model.Skip, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, nil, fmt.Errorf("nccl inspector: %w", err)
	}
	recs, sk, err := parse(bytes.NewReader(b), maxMem)
	if err != nil {
		return nil, nil, &source.FileError{Path: p, Offset: -1, Err: err}
	}
	skips := make([]model.Skip, 0, len(sk))
	for _, s := range sk {
		skips = append(skips, model.Skip{Source: p, Offset: s.Line, Unit: "line", Reason: s.Reason, Count: 1})
	}
	return recs, skips, nil
}
