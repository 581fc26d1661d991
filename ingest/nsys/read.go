package nsys

import (
	"context"
	"fmt"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// Read reads Nsight Systems reports (.sqlite exports, or .nsys-rep exported
// with nsys first), one per rank or one per node, into one trace.
func Read(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	bs, err := readAll(ctx, paths, opts)
	if err != nil {
		return nil, err
	}
	ranks := assignRanks(bs, paths, opts)
	for i, b := range bs {
		b.finish(ranks[i], model.Source{Path: paths[i], Format: formatOf(paths[i]), Version: b.meta.versionText(), Size: size(paths[i])})
	}
	resolveComms(bs, opts)
	return merge(bs)
}

// merge merges the reports' traces; one report only needs sorting.
func merge(bs []*builder) (*model.Trace, error) {
	if len(bs) == 1 {
		bs[0].tr.Events.Sort()
		return bs[0].tr, nil
	}
	parts := make([]*model.Trace, len(bs))
	for i, b := range bs {
		parts[i] = b.tr
	}
	t, err := model.Merge(parts...)
	if err != nil {
		return nil, fmt.Errorf("nsys: %w", err)
	}
	return t, nil
}

func readAll(ctx context.Context, paths []string, opts source.Options) ([]*builder, error) {
	bs := make([]*builder, len(paths))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers(opts))
	for i, p := range paths {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			b, err := readOne(ctx, p)
			bs[i] = b
			return err
		})
	}
	return bs, g.Wait()
}

func workers(opts source.Options) int {
	if opts.Workers > 0 {
		return opts.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// readOne reads an export, exporting a .nsys-rep first.
func readOne(ctx context.Context, path string) (*builder, error) {
	if !isRep(path) {
		return readReport(path)
	}
	db, err := exportRep(ctx, path)
	if err != nil {
		return nil, err
	}
	b, err := readReport(db)
	if b != nil {
		b.path = path
	}
	return b, err
}

// assignRanks returns, per report, process id -> global rank. Processes no
// source names a rank for get the lowest free ranks, in file then process
// order, with a warning.
func assignRanks(bs []*builder, paths []string, opts source.Options) []map[int32]int32 {
	out := make([]map[int32]int32, len(bs))
	used := map[int32]bool{}
	for i, b := range bs {
		out[i] = b.localRanks(paths[i], opts)
		for _, r := range out[i] {
			used[r] = r >= 0
		}
	}
	next := int32(0)
	for i, b := range bs {
		for _, pid := range b.pids() {
			if out[i][pid] >= 0 {
				continue
			}
			for used[next] {
				next++
			}
			out[i][pid], used[next] = next, true
			warn(opts, "%s: process %d names no rank (no RANK in its environment, none in the file name or --rank-map): using rank %d", paths[i], pid, next)
		}
	}
	return out
}

func warn(opts source.Options, format string, args ...any) {
	if opts.Warn != nil {
		opts.Warn(fmt.Sprintf(format, args...))
	}
}
