package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/nsys"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// ShardFile is written in each shard's dataset, beside its manifest: what
// the join needs that the dataset does not hold.
const ShardFile = "shard.json"

// shardMeta is the content of shard.json.
type shardMeta struct {
	Version int `json:"version,omitempty"` // shardVersion; absent: 1
	Shard   int `json:"shard"`
	Of      int `json:"of"`
	// Format is the format the shards read: "" for Kineto traces, "nsys"
	// for Nsight Systems exports.
	Format string `json:"format,omitempty"`
	// RankLists are the distinct process-group rank lists of Files (version 2).
	RankLists [][]int32    `json:"rank_lists,omitempty"`
	Files     []shardFile  `json:"files"`            // the Kineto files read, in order, with their process groups' rank lists
	Failed    []model.Skip `json:"failed,omitempty"` // Kineto files that could not be read
	// Nsys is what the join of nsys shards needs (Format "nsys").
	Nsys *nsys.ShardInfo `json:"nsys,omitempty"`
	// Trailing are the skip records of the inputs no format claims and of
	// the walk (shard 0 only): the unsharded load lists them last.
	Trailing []model.Skip `json:"trailing,omitempty"`

	files []kineto.FileLists // Files with their lists, as the shard read them or unpackFiles gives them
}

// ParseShard reads "K/N" (0 <= K < N).
func ParseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n || n > 1<<20 {
		return 0, 0, fmt.Errorf("want --shard K/N with 0 <= K < N, got %q", s)
	}
	return k, n, nil
}

// ShardDir is shard k's dataset under root: root/shard=KKKKK.
func ShardDir(root string, k int) string {
	return filepath.Join(root, fmt.Sprintf("shard=%05d", k))
}

// BesideDir is the i-th dataset beside the shards under root (a cache
// entry of LoadRankedCold): root/beside=IIIII, the files of one of
// besideFormats of the job, read whole, merged after the shards' join.
func BesideDir(root string, i int) string {
	return filepath.Join(root, fmt.Sprintf("beside=%05d", i))
}

// readBeside reads the datasets beside the shards under root, in order;
// none for a sharded dataset of IngestShard.
func readBeside(root string) ([]*model.Trace, error) {
	return readBesideChecked(root, func() error { return nil })
}

// readBesideChecked is readBeside with check run after each dataset read
// (a beside entry's memory check: readBesideEntry); its error ends the read.
func readBesideChecked(root string, check func() error) ([]*model.Trace, error) {
	var out []*model.Trace
	for i := 0; dataset.IsDataset(BesideDir(root, i)); i++ {
		t, _, err := dataset.Read(BesideDir(root, i))
		if err == nil {
			err = check()
		}
		if err != nil {
			return nil, fmt.Errorf("beside the shards: %w", err)
		}
		out = append(out, t)
	}
	return out, nil
}

// IngestShard reads shard k of n of the Kineto traces among paths (the
// k-th of n contiguous blocks of the sorted files, so that the shards in
// order hold the files in the order one load reads them), or of the nsys
// exports when there is no Kineto trace, and writes it as a dataset in
// ShardDir(root, k), with shard.json. Files of other formats are not read
// (a warning says so): give them to analyze beside the sharded dataset. It
// returns the shard's trace.
func IngestShard(ctx context.Context, paths []string, opts source.Options, k, n int, root string, m dataset.Manifest) (*model.Trace, error) {
	in, err := expand(paths)
	if err != nil {
		return nil, err
	}
	groups, skipped := sniffAll(in.files, Formats())
	warnSkips(opts, paths, skipped.Skipped, in.skipped)
	format := shardFormat(groups)
	if format == "" {
		return nil, fmt.Errorf("shard %d/%d: no Kineto trace or nsys export among the inputs", k, n)
	}
	warnOthers(opts, groups, format)
	meta := shardMeta{Shard: k, Of: n}
	if k == 0 {
		meta.Trailing = append(skipped.Skipped, in.skipped...)
	}
	read := readKinetoShard
	if format == nsysFormat {
		read = readNsysShard
	}
	t, err := read(ctx, groups[format], opts, k, n, &meta)
	if err != nil {
		return nil, fmt.Errorf("shard %d/%d: %w", k, n, err)
	}
	return t, writeShard(ShardDir(root, k), t, meta, m)
}

// nsysFormat is the name of the nsys exports' format.
const nsysFormat = "nsys"

// shardFormat is the format a shard reads: Kineto traces when there are
// any, else nsys exports; "" when neither.
func shardFormat(groups map[string][]string) string {
	for _, f := range []string{kineto.Format.Name, nsysFormat} {
		if len(groups[f]) > 0 {
			return f
		}
	}
	return ""
}

func readKinetoShard(ctx context.Context, files []string, opts source.Options, k, n int, meta *shardMeta) (*model.Trace, error) {
	return readKinetoWith(kineto.ReadShard, ctx, files, opts, k, n, meta)
}

// readKinetoJobShard is readKinetoShard for a caller that reads every
// shard and says the files not read once (kineto.WarnJobFailed).
func readKinetoJobShard(ctx context.Context, files []string, opts source.Options, k, n int, meta *shardMeta) (*model.Trace, error) {
	return readKinetoWith(kineto.ReadJobShard, ctx, files, opts, k, n, meta)
}

type kinetoShardReader func(ctx context.Context, paths []string, opts source.Options, total int) (*kineto.Shard, error)

func readKinetoWith(read kinetoShardReader, ctx context.Context, files []string, opts source.Options, k, n int, meta *shardMeta) (*model.Trace, error) {
	mine := files[k*len(files)/n : (k+1)*len(files)/n]
	if len(mine) == 0 {
		return &model.Trace{}, nil
	}
	sh, err := read(ctx, mine, opts, len(files))
	if err != nil {
		return nil, err
	}
	meta.files, meta.Failed = sh.Files, sh.Failed
	internComms(sh.Trace, newListIntern()) // the merge copied each file's members
	return sh.Trace, nil
}

func readNsysShard(ctx context.Context, files []string, opts source.Options, k, n int, meta *shardMeta) (*model.Trace, error) {
	sh, err := nsys.ReadShard(ctx, files, k, n, opts)
	if err != nil {
		return nil, err
	}
	meta.Format, meta.Nsys = nsysFormat, &sh.Info
	return sh.Trace, nil
}

// warnOthers names the formats a shard does not read.
func warnOthers(opts source.Options, groups map[string][]string, read string) {
	for name, files := range groups {
		if name != read && len(files) > 0 {
			warn(opts, fmt.Sprintf("--shard reads one timeline format (Kineto traces, else nsys exports): %d %s files not read (give them to analyze beside the dataset)", len(files), name))
		}
	}
}

// writeShard writes the dataset, then shard.json through a rename: a shard
// counts once both are complete.
func writeShard(dir string, t *model.Trace, meta shardMeta, m dataset.Manifest) error {
	if err := os.Remove(filepath.Join(dir, ShardFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("replacing shard %s: %w", dir, err) // a retry: the old shard no longer counts
	}
	if err := dataset.Write(dir, t, m); err != nil {
		return err
	}
	meta.Version = shardVersion
	meta.RankLists, meta.Files = packFiles(meta.files)
	b, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+ShardFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", ShardFile, err)
	}
	return os.Rename(tmp, filepath.Join(dir, ShardFile))
}

// IsSharded reports whether dir holds shard datasets (shard=KKKKK/ with
// shard.json) rather than being a dataset or a trace directory.
func IsSharded(dir string) bool {
	if dataset.IsDataset(dir) {
		return false
	}
	m, _ := filepath.Glob(filepath.Join(dir, "shard=*", ShardFile))
	return len(m) > 0
}

// readSharded reads every shard under root and joins them, merging in the
// datasets beside them (BesideDir) in order; the trailing skip records come
// back apart, to be listed last as a load lists them.
func readSharded(root string) (*model.Trace, []model.Skip, error) {
	in := newListIntern()
	metas, err := shardMetas(root, in)
	if err != nil {
		return nil, nil, err
	}
	traces := make([]*model.Trace, len(metas))
	var trailing []model.Skip
	for k, meta := range metas {
		if traces[k], _, err = dataset.Read(ShardDir(root, k)); err != nil {
			return nil, nil, fmt.Errorf("shard %d/%d: %w", k, len(metas), err)
		}
		internComms(traces[k], in)
		trailing = append(trailing, meta.Trailing...)
	}
	join := joinKineto
	if metas[0].Format == nsysFormat {
		join = joinNsys
	}
	t, err := join(traces, metas)
	if err != nil {
		return nil, nil, fmt.Errorf("joining the shards of %s: %w", root, err)
	}
	beside, err := readBeside(root)
	if err == nil && len(beside) > 0 {
		t, err = model.MergeOwned(append([]*model.Trace{t}, beside...)...)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("sharded dataset %s: %w", root, err)
	}
	return t, trailing, nil
}

func joinKineto(traces []*model.Trace, metas []shardMeta) (*model.Trace, error) {
	shards := make([]*kineto.Shard, len(metas))
	for k, meta := range metas {
		shards[k] = &kineto.Shard{Trace: traces[k], Files: meta.files, Failed: meta.Failed}
	}
	return kineto.Join(shards)
}

func joinNsys(traces []*model.Trace, metas []shardMeta) (*model.Trace, error) {
	shards := make([]*nsys.Shard, len(metas))
	for k, meta := range metas {
		if meta.Nsys == nil {
			return nil, fmt.Errorf("shard %d has no nsys part in its %s", k, ShardFile)
		}
		shards[k] = &nsys.Shard{Trace: traces[k], Info: *meta.Nsys}
	}
	return nsys.Join(shards)
}

// shardMetas reads shard.json of shards 0..N-1 and checks that all are
// there; their rank lists share one copy of each distinct list (in).
func shardMetas(root string, in *listIntern) ([]shardMeta, error) {
	var metas []shardMeta
	for k := 0; k == 0 || k < metas[0].Of; k++ {
		b, err := os.ReadFile(filepath.Join(ShardDir(root, k), ShardFile))
		if err != nil {
			return nil, fmt.Errorf("sharded dataset %s: shard %d is missing or incomplete: %w", root, k, err)
		}
		var m shardMeta
		if err := json.Unmarshal(b, &m); err != nil || m.Shard != k || m.Of < 1 || len(metas) > 0 && (m.Of != metas[0].Of || m.Format != metas[0].Format) {
			return nil, fmt.Errorf("sharded dataset %s: %s of shard %d is not valid (%v)", root, ShardFile, k, err)
		}
		if m.Version > shardVersion {
			return nil, fmt.Errorf("sharded dataset %s: %s of shard %d has version %d; this build reads up to %d", root, ShardFile, k, m.Version, shardVersion)
		}
		if m.files, err = unpackFiles(&m, in); err != nil {
			return nil, fmt.Errorf("sharded dataset %s: %s of shard %d: %w", root, ShardFile, k, err)
		}
		m.Files, m.RankLists = nil, nil
		metas = append(metas, m)
	}
	return metas, nil
}
