package nsys

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// Read reads Nsight Systems reports (.sqlite exports, or .nsys-rep exported
// with nsys first), one per rank or one per node, into one trace.
func Read(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	paths, exported := dropExportedReports(paths)
	bs, skips, err := readAll(ctx, paths, opts)
	if err != nil {
		return nil, err
	}
	paths = make([]string, len(bs))
	for i, b := range bs {
		paths[i] = b.path
	}
	ranks := assignRanks(bs, paths, opts)
	base := commonBase(bs)
	for i, b := range bs {
		b.finish(ranks[i], base, model.Source{Path: paths[i], Format: formatOf(paths[i]), Version: b.meta.versionText(), Size: size(paths[i])})
	}
	resolveComms(bs, opts)
	bs[0].tr.Skipped = append(bs[0].tr.Skipped, append(skips, exported...)...)
	sortAll(bs, workers(opts))
	return merge(bs)
}

// dropExportedReports leaves out every .nsys-rep whose SQLite export
// (report.sqlite or report.nsys-rep.sqlite) is among the inputs: the export
// is read instead, and the report is recorded as skipped for that reason.
func dropExportedReports(paths []string) ([]string, []model.Skip) {
	have := map[string]bool{}
	for _, p := range paths {
		have[p] = true
	}
	var keep []string
	var skips []model.Skip
	for _, p := range paths {
		base, isRep := strings.CutSuffix(p, ".nsys-rep")
		if isRep && (have[base+".sqlite"] || have[p+".sqlite"]) {
			skips = append(skips, model.Skip{Source: p, Offset: -1, Count: 1, Reason: "its SQLite export is among the inputs and is read instead"})
			continue
		}
		keep = append(keep, p)
	}
	return keep, skips
}

// commonBase is the earliest session start: every rank's times are made
// relative to it, so ranks stay comparable (their difference is the hosts'
// clock offset) and ClockBase + time is the host's wall clock.
func commonBase(bs []*builder) int64 {
	base := bs[0].meta.sessionNs
	for _, b := range bs[1:] {
		base = min(base, b.meta.sessionNs)
	}
	return base
}

// sortAll sorts each report's events, n at a time.
func sortAll(bs []*builder, n int) {
	var g errgroup.Group
	g.SetLimit(n)
	for _, b := range bs {
		g.Go(func() error { sortEvents(&b.tr.Events); return nil })
	}
	_ = g.Wait()
}

// merge merges the reports' traces (each sorted: Merge then only
// concatenates them), taking their events (MergeOwned: the reports are not
// used after, and their columns are remapped in place rather than copied
// first); one report only needs its counters sorted.
func merge(bs []*builder) (*model.Trace, error) {
	if len(bs) == 1 {
		bs[0].tr.Counters.Sort()
		return bs[0].tr, nil
	}
	parts := make([]*model.Trace, len(bs))
	for i, b := range bs {
		parts[i] = b.tr
	}
	t, err := model.MergeOwned(parts...)
	if err != nil {
		return nil, fmt.Errorf("nsys: %w", err)
	}
	return t, nil
}

// readAll reads every file; files that fail are skipped (and reported)
// unless none can be read or the context ends.
func readAll(ctx context.Context, paths []string, opts source.Options) ([]*builder, []model.Skip, error) {
	bs := make([]*builder, len(paths))
	errs := make([]error, len(paths))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers(opts))
	for i, p := range paths {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			bs[i], errs[i] = readOne(gctx, p, opts.MaxMemory)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return keepRead(bs, errs, paths, opts)
}

func keepRead(bs []*builder, errs []error, paths []string, opts source.Options) ([]*builder, []model.Skip, error) {
	var ok []*builder
	var skips []model.Skip
	for i, b := range bs {
		if errors.Is(errs[i], source.ErrMemoryBudget) {
			return nil, nil, errs[i] // the budget stops the load; it names the file
		}
		if errs[i] != nil {
			skips = append(skips, model.Skip{Source: paths[i], Offset: -1, Reason: errs[i].Error(), Count: 1})
			warn(opts, "skipping %v", errs[i])
			continue
		}
		ok = append(ok, b)
	}
	if len(ok) == 0 {
		return nil, skips, errors.Join(errs...) // the skips for ReadShard, where other shards may read
	}
	return ok, skips, nil
}

func workers(opts source.Options) int {
	if opts.Workers > 0 {
		return opts.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// readOne reads an export, exporting a .nsys-rep first.
func readOne(ctx context.Context, path string, maxMem int64) (*builder, error) {
	if !isRep(path) {
		return readReport(path, maxMem)
	}
	db, err := exportRep(ctx, path)
	if err != nil {
		return nil, err
	}
	b, err := readReport(db, maxMem)
	if b != nil {
		b.path = path
	}
	return b, err
}

// assignRanks returns, per report, process id -> global rank. Processes no
// source names a rank for get the lowest free ranks, in file then device
// (a launcher gives local rank i GPU i) then process order, with a
// warning.
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
		if !slices.Contains(slices.Collect(maps.Values(out[i])), -1) {
			continue
		}
		for _, pid := range b.pidsByDevice() {
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
