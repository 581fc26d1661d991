package ingest

import (
	"context"
	"fmt"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// loadBeside is LoadRanked of one dataset or sharded dataset with files
// beside it: files of besideFormats, read whole (by read: parsed, or from
// their cache entry) and merged after the dataset (after the shards'
// join), then the skip records, in Load's order and with Load's warnings.
// ok is false, with nothing read or said, for a file of another format
// beside it, and when a file beside it cannot be read or holds events
// (Load says what is wrong).
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
	extra, warns, err := read(in, paths, beside, opts)
	if err != nil {
		return nil, false, nil // nothing said: the whole read says it
	}
	skips := append(trailing, skipped.Skipped...)
	warnSkips(opts, paths, skips, in.skipped)
	sayWarnings(opts.Warn, warns)
	sr, err := readBesideRanked(dir, sharded, annotation, extra, append(skips, in.skipped...))
	if err != nil {
		return nil, true, err
	}
	if err := sr.trace.Validate(); err != nil {
		return nil, true, fmt.Errorf("the trace is invalid: %w", err)
	}
	return sr, true, nil
}

// readBesideGroups reads each group of files beside a dataset or the
// timeline's shards whole (besideGroup.read), in Load's order, keeping
// their readers' warnings, in order, to be said once the read is known
// to go on rank by rank (sayWarnings); err is the first group's that
// could not be read or holds events.
func readBesideGroups(ctx context.Context, beside []besideGroup, opts source.Options) ([]*model.Trace, []string, error) {
	var kept source.Warnings
	if opts.Warn != nil {
		opts.Warn = kept.Add
	}
	extra := make([]*model.Trace, 0, len(beside))
	for _, g := range beside {
		besideParses.Add(1)
		t, err := g.read(ctx, opts)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", g.format.Name, err)
		}
		extra = append(extra, t)
	}
	return extra, kept.Msgs(), nil
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
