package kineto

import (
	"context"
	"errors"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// FileLists is what one file states of its process groups: group name ->
// rank list. A shard keeps them, in file order, for the join.
type FileLists struct {
	Path  string             `json:"path"`
	Lists map[string][]int32 `json:"lists,omitempty"`
}

// Shard is one shard's part of a job read in pieces (ReadShard): the
// merged trace of its files, without the steps that need every file.
type Shard struct {
	Trace  *model.Trace
	Files  []FileLists  // every file read, in order
	Failed []model.Skip // files that could not be read
}

// shardSep joins a process group name and the file that uses it in the
// communicator IDs of a shard, so that no two files' groups are merged
// before the join knows every file's rank list.
const shardSep = "\x1f"

// ReadShard reads some of a job's Kineto files as Read does, but leaves
// out the steps that need all of them (naming process groups whose rank
// lists disagree across files, dropping members without a trace): Join
// does those over every shard. total is the number of Kineto files of the
// whole job. The result equals Read over all files once joined.
func ReadShard(ctx context.Context, paths []string, opts source.Options, total int) (*Shard, error) {
	return readShard(ctx, paths, opts, total, true)
}

// ReadJobShard is ReadShard without the warnings of the files that could
// not be read, for a caller that reads every shard of the job:
// WarnJobFailed then says them once, as Read does.
func ReadJobShard(ctx context.Context, paths []string, opts source.Options, total int) (*Shard, error) {
	return readShard(ctx, paths, opts, total, false)
}

// WarnJobFailed says on the warning channel, as Read does, which of a
// job's total files could not be read (the shards' Failed, in order), when
// others could.
func WarnJobFailed(failed []model.Skip, total int, opts source.Options) {
	if opts.Warn == nil || len(failed) == 0 || len(failed) == total {
		return
	}
	for _, s := range failed {
		opts.Warn("skipping " + strings.TrimPrefix(s.Reason, notReadPrefix))
	}
}

func readShard(ctx context.Context, paths []string, opts source.Options, total int, warn bool) (*Shard, error) {
	results := readAll(ctx, paths, opts, total == 1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sh := &Shard{}
	var parts []*model.Trace
	for _, r := range results {
		if errors.Is(r.err, source.ErrMemoryBudget) {
			return nil, r.err
		}
		if r.err != nil {
			sh.Failed = append(sh.Failed, skipOf(r.path, r.err))
			continue
		}
		for i := range r.tr.Comms {
			r.tr.Comms[i].ID += shardSep + r.path
		}
		parts = append(parts, r.tr)
		sh.Files = append(sh.Files, FileLists{r.path, r.lists})
	}
	if warn {
		warnFailed(results, len(paths), opts)
	}
	t, err := model.MergeOwned(parts...)
	sh.Trace = t
	return sh, err
}

// Join merges the shards of one job, in shard order, and does what
// ReadShard left out, so that the trace equals Read over all the files.
func Join(shards []*Shard) (*model.Trace, error) {
	var results []fileResult
	for _, sh := range shards {
		for _, f := range sh.Files {
			results = append(results, fileResult{path: f.Path, lists: f.Lists})
		}
	}
	variants := commVariants(results)
	lists := map[string]map[string][]int32{}
	for _, r := range results {
		lists[r.path] = r.lists
	}
	parts := make([]*model.Trace, 0, len(shards)+1)
	failed := &model.Trace{}
	for _, sh := range shards {
		for i := range sh.Trace.Comms {
			c := &sh.Trace.Comms[i]
			_, path, _ := strings.Cut(c.ID, shardSep)
			c.ID = commID(variants, c.Name, lists[path][c.Name], c.Members)
		}
		parts = append(parts, sh.Trace)
		failed.Skipped = append(failed.Skipped, sh.Failed...)
	}
	out, err := model.MergeOwned(append(parts, failed)...)
	if err != nil {
		return nil, err
	}
	trimMembers(out)
	return out, nil
}
