package ingest

import (
	"context"
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// loadBeside is LoadRanked of one dataset or sharded dataset with files
// beside it: files of besideFormats, read whole (by read: parsed, or from
// their cache entry) and merged after the dataset (after the shards'
// join), then the skip records, in Load's order and with Load's warnings.
// ok is false, with nothing read or said, for a file of another format
// beside it, when a file beside it cannot be read or holds events other
// than a Fallback part's (Load says what is wrong), and when a Fallback
// part times a rank that has no events in the dataset (Merge keeps its
// events: besideParts.covered).
func loadBeside(in inputs, paths []string, opts source.Options, read besideReader, minEvents int64, annotation func(name string) bool) (Ranked, bool, error) {
	sharded := len(in.sharded) == 1
	dir := append(in.datasets, in.sharded...)[0]
	if !holdsAll(dir, sharded, minEvents) {
		return nil, false, nil
	}
	var trailing []model.Skip
	if sharded {
		metas, err := shardMetas(dir, newListIntern())
		if err != nil {
			return nil, false, nil
		}
		for _, m := range metas {
			trailing = append(trailing, m.Trailing...)
		}
	}
	groups, skipped := sniffAll(in.files, Formats())
	beside, ok := besideGroups(groups, "")
	if !ok {
		return nil, false, nil
	}
	side, err := read(in, paths, beside, opts)
	if err != nil || len(side.timed) > 0 && !side.covered(timelineOf(dir, sharded)) {
		return nil, false, nil // nothing said: the whole read says it
	}
	skips := append(trailing, skipped.Skipped...)
	warnSkips(opts, paths, skips, in.skipped)
	sayWarnings(opts.Warn, side.warns)
	sr, err := readBesideRanked(dir, sharded, annotation, side.traces, append(skips, in.skipped...))
	if err != nil {
		return nil, true, err
	}
	if err := sr.trace.Validate(); err != nil {
		return nil, true, fmt.Errorf("the trace is invalid: %w", err)
	}
	return sr, true, nil
}

// besideParts is the read of the groups of files beside a dataset or the
// timeline's shards (readBesideGroups): one trace a group, in Load's
// order, a Fallback part with events (timed Flight Recorder entries,
// verbose Inspector records) reduced to what Merge keeps of it beside a
// timeline of every rank it times (model.Trace.DropFallback); their
// readers' warnings, to be said; and those ranks, each of which must have
// events in the timeline for the merge to be Load's (covered).
type besideParts struct {
	traces []*model.Trace
	warns  []string
	timed  []int32 // the ranks whose Fallback events were dropped, ascending
}

// covered reports whether every rank whose Fallback events were dropped
// has events in the timeline, as has says.
func (b besideParts) covered(has func(rank int32) bool) bool {
	for _, r := range b.timed {
		if !has(r) {
			return false
		}
	}
	return true
}

// readBesideGroups reads each group of files beside a dataset or the
// timeline's shards whole (besideGroup.read), in Load's order, keeping
// their readers' warnings, in order, to be said once the read is known
// to go on rank by rank (sayWarnings), and reduces each Fallback part
// (besideParts); err is the first group's that could not be read or holds
// events of another kind.
func readBesideGroups(ctx context.Context, beside []besideGroup, opts source.Options) (besideParts, error) {
	var kept source.Warnings
	if opts.Warn != nil {
		opts.Warn = kept.Add
	}
	out := besideParts{traces: make([]*model.Trace, 0, len(beside))}
	for _, g := range beside {
		besideParses.Add(1)
		t, err := g.read(ctx, opts)
		if err != nil {
			return besideParts{}, fmt.Errorf("%s: %w", g.format.Name, err)
		}
		t, ranks := t.DropFallback()
		out.traces = append(out.traces, t)
		out.timed = slices.Compact(slices.Sorted(slices.Values(append(out.timed, ranks...))))
	}
	out.warns = kept.Msgs()
	return out, nil
}

// sayWarnings passes msgs to warn, in order (none when warn is nil).
func sayWarnings(warn func(string), msgs []string) {
	if warn == nil {
		return
	}
	for _, m := range msgs {
		warn(m)
	}
}

// readBesideRanked reads the dataset (or sharded dataset) in dir rank by
// rank and merges the extra parts and skips after it.
func readBesideRanked(dir string, sharded bool, annotation func(name string) bool, extra []*model.Trace, skips []model.Skip) (*ShardedRanked, error) {
	if sharded {
		return readShardedRankedWith(dir, annotation, extra, skips)
	}
	return readDatasetWith(dir, annotation, extra, skips)
}

// readDatasetWith reads one dataset rank by rank as a sharded dataset of
// one shard that needs no join: its cross-rank rows merged with the extra
// parts (no events) and the skip records as Load merges them, each rank's
// events renumbered as that merge renumbered the dataset's rows.
func readDatasetWith(dir string, annotation func(name string) bool, extra []*model.Trace, skips []model.Skip) (*ShardedRanked, error) {
	rk, _, err := dataset.ReadRanked(dir, annotation)
	if err != nil {
		return nil, err
	}
	sr := &ShardedRanked{shard: map[int32]int{}}
	rows := map[int32]rankRows{}
	sr.addShard(0, rk, rows)
	parts := append([]*model.Trace{rk.Trace}, extra...)
	t, err := model.Merge(append(parts, &model.Trace{Skipped: skips})...)
	if err != nil {
		return nil, fmt.Errorf("merging %s with the files beside it: %w", dir, err)
	}
	return sr, sr.bind(t, rows)
}

// timelineOf says which ranks have events in the dataset or sharded
// dataset in dir, as its manifests (or its shards') count them; a manifest
// that cannot be read says none (the read then says what is wrong).
func timelineOf(dir string, sharded bool) func(rank int32) bool {
	has := map[int32]bool{}
	for k := 0; k == 0 || sharded; k++ {
		d := dir
		if sharded {
			d = ShardDir(dir, k)
		}
		m, err := dataset.ReadManifest(d)
		if err != nil {
			break
		}
		for i, n := range m.RankEvents {
			has[m.Ranks[i]] = has[m.Ranks[i]] || n > 0
		}
	}
	return func(rank int32) bool { return has[rank] }
}
