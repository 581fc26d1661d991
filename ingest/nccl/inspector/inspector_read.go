package inspector

import (
	"context"
	"fmt"
	"os"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// readInspector reads Inspector files: ranks and communicators from every
// record, and from verbose records (event_trace_ts) timed KindComm events
// in a Fallback trace on the host wall clock (ClockBase 0, epoch ns), so
// that a Kineto or nsys timeline of a rank replaces them on Merge.
func readInspector(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	c := newCollector()
	var skips []model.Skip
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sk, err := readInspectorFile(p, opts.MaxMemory, c.add)
		if err != nil {
			return nil, err
		}
		skips = append(skips, sk...)
	}
	t := c.trace(paths)
	t.Skipped = append(t.Skipped, skips...)
	return t, nil
}

// inspectorTrace builds the trace of records read from paths.
func inspectorTrace(recs []InspectorRecord, paths []string) *model.Trace {
	c := newCollector()
	for _, r := range recs {
		c.add(r)
	}
	return c.trace(paths)
}

// readInspectorFile streams one file's records to rec.
func readInspectorFile(p string, maxMem int64, rec func(InspectorRecord)) ([]model.Skip, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("nccl inspector: %w", err)
	}
	defer f.Close()
	sk, err := each(f, maxMem, rec)
	if err != nil {
		return nil, &source.FileError{Path: p, Offset: -1, Err: err}
	}
	skips := make([]model.Skip, 0, len(sk))
	for _, s := range sk {
		skips = append(skips, model.Skip{Source: p, Offset: s.Line, Unit: "line", Reason: s.Reason, Count: 1})
	}
	return skips, nil
}
