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
// that a Kineto or nsys timeline of a rank replaces them on Merge. The
// files are read on every core and added in path order (source.InOrder).
func readInspector(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	c := newCollector()
	var skips []model.Skip
	err := source.InOrder(ctx, len(paths), opts.Workers, func(i int) (fileRecords, error) {
		return readFileRecords(paths[i], opts.MaxMemory)
	}, func(_ int, f fileRecords) error {
		c.merge(f.c)
		skips = append(skips, f.skips...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	t := c.trace(paths)
	t.Skipped = append(t.Skipped, skips...)
	return t, nil
}

// fileRecords is what one file gives: its records, collected on their own
// (the file is read beside others, collector.merge adds them in file
// order), and its skips.
type fileRecords struct {
	c     *collector
	skips []model.Skip
}

// readFileRecords reads one file into a collector of its own.
func readFileRecords(p string, maxMem int64) (fileRecords, error) {
	c := newCollector()
	sk, err := readInspectorFile(p, maxMem, c.add)
	return fileRecords{c: c, skips: sk}, err
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
