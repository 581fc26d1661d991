package ingest

import (
	"fmt"
	"path/filepath"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// Ranked is a trace read rank by rank (LoadRanked): Model holds every
// table and only the cross-rank rows of the events; RankEvents reads one
// rank's events again (model.RankSource), Local maps a row of Model to its
// row there, and EventCount counts every rank's events.
type Ranked interface {
	model.RankSource
	Model() *model.Trace
	Local(row int32) int32
	EventCount() int64
}

// LoadRanked reads paths rank by rank (dataset.ReadRanked, docs/memory.md)
// when they are one dataset directory or one sharded dataset
// (ShardedRanked), with nothing else or with files that hold no events
// beside it (besideFormats: NCCL logs, NVML samples, Flight Recorder
// dumps, NCCL profiler traces, Inspector records; read whole and merged
// as Load merges them, timed dumps and verbose records reduced to what
// Merge keeps of them: besideParts), holding at least minEvents events;
// ok is false for any other inputs (Load reads those), and when a beside
// file could not be read, holds events that are no Fallback part's, or
// times a rank the dataset has no events of (before any warning: the
// caller's whole read then says what is wrong).
// The cross-rank trace is validated as Load validates the whole one; each
// rank's events are checked when they are read. annotation picks the CPU
// range annotations kept of every rank (dataset.ReadRanked); opts.Warn
// hears what Load would warn of.
// The files beside it are parsed every time, and nothing is written
// (LoadRankedCaching keeps their parse).
func LoadRanked(paths []string, opts source.Options, minEvents int64, annotation func(name string) bool) (rk Ranked, ok bool, err error) {
	return loadRanked(paths, opts, parseBeside, minEvents, annotation)
}

// LoadRankedCaching is LoadRanked that keeps the parse of the NCCL logs
// and NVML samples beside the dataset in a cache entry (besideCache):
// in cacheDir, or when that is "" under $TPPTRACE_CACHE or the user cache
// directory, never beside the inputs; keyed by the files' paths, sizes and
// mtimes, the names this run gives them and the options that change the
// parse, and read instead of them while those are unchanged, with the
// warnings their parse gave. Without a writable cache, the files are
// parsed, as by LoadRanked. A new entry is written in the background, as
// the trace is analysed: wait (never nil) returns once it is written; when
// ok is false or err is not nil, it has been already.
func LoadRankedCaching(paths []string, opts source.Options, cacheDir string, minEvents int64, annotation func(name string) bool) (rk Ranked, wait func(), ok bool, err error) {
	c := &besideCache{dir: cacheDir}
	rk, ok, err = loadRanked(paths, opts, c.read, minEvents, annotation)
	if !ok || err != nil {
		c.wait()
		return nil, func() {}, ok, err
	}
	return rk, c.wait, true, nil
}

// loadRanked is LoadRanked with the files beside a dataset read by
// readBeside.
func loadRanked(paths []string, opts source.Options, readBeside besideReader, minEvents int64, annotation func(name string) bool) (rk Ranked, ok bool, err error) {
	in, err := expand(paths)
	if err != nil || len(in.datasets)+len(in.sharded) != 1 {
		return nil, false, nil
	}
	if len(in.files)+len(in.skipped) > 0 {
		return loadBeside(in, paths, opts, readBeside, minEvents, annotation)
	}
	read := readRanked
	dir := append(in.datasets, in.sharded...)[0]
	if len(in.sharded) == 1 {
		read = readShardedRankedAs
	}
	if !holdsAll(dir, len(in.sharded) == 1, minEvents) {
		return nil, false, nil
	}
	rk, err = read(dir, annotation)
	if err != nil {
		return nil, true, err
	}
	if err := rk.Model().Validate(); err != nil {
		return nil, true, fmt.Errorf("the trace is invalid: %w", err)
	}
	if sr, isSharded := rk.(*ShardedRanked); isSharded {
		warnSkips(opts, paths, sr.trailing, nil) // as Load warns of them
	}
	return rk, true, nil
}

func readRanked(dir string, annotation func(name string) bool) (Ranked, error) {
	rk, _, err := dataset.ReadRanked(dir, annotation)
	if err != nil {
		return nil, err
	}
	return rk, nil
}

func readShardedRankedAs(dir string, annotation func(name string) bool) (Ranked, error) {
	sr, err := readShardedRanked(dir, annotation)
	if err != nil {
		return nil, err
	}
	return sr, nil
}

// holdsAll is holds of a dataset, or of a sharded dataset's shards
// together.
func holdsAll(dir string, sharded bool, n int64) bool {
	if !sharded || n <= 0 {
		return holds(dir, n)
	}
	var sum int64
	for k := 0; ; k++ {
		m, err := dataset.ReadManifest(ShardDir(dir, k))
		if err != nil {
			return k == 0 || sum >= n // the first shard missing: reading says what is wrong
		}
		for _, c := range m.RankEvents {
			sum += c
		}
	}
}

// LoadRankedCached is LoadRanked of the warm dataset cache entry of paths
// (LoadCached), one dataset or a sharded one (LoadRankedCold): ok is
// false, with nothing read, when LoadCached would not read an entry (no
// trace files among the inputs, no cache, no entry yet), when the entry
// holds fewer than minEvents events
// or when the entry cannot be read (LoadCached then rebuilds it).
func LoadRankedCached(paths []string, opts source.Options, cacheDir string, minEvents int64, annotation func(name string) bool) (Ranked, bool) {
	in, err := expand(paths)
	if err != nil || len(in.files) == 0 {
		return nil, false
	}
	key, err := inputsKey(in, opts)
	root := cacheRoot(paths[0], cacheDir)
	if err != nil || root == "" {
		return nil, false
	}
	entry := filepath.Join(root, key)
	sharded := IsSharded(entry)
	if !sharded && !dataset.IsDataset(entry) || !holdsAll(entry, sharded, minEvents) {
		return nil, false
	}
	rk, err := readCachedRanked(entry, sharded, annotation)
	if err != nil {
		return nil, false
	}
	relocate(rk.Model(), namesOf(in.files, paths))
	warnSkippedFiles(rk.Model(), paths, opts)
	return rk, true
}

// readCachedRanked reads a cache entry rank by rank.
func readCachedRanked(entry string, sharded bool, annotation func(name string) bool) (Ranked, error) {
	if !sharded {
		return readRanked(entry, annotation)
	}
	sr, err := readShardedRanked(entry, annotation)
	if err == nil {
		err = sr.trace.Validate()
	}
	if err != nil {
		return nil, err
	}
	return sr, nil
}

// holds reports whether the dataset in dir holds at least n events, as its
// manifest counts them; a manifest that cannot be read says yes (reading
// the dataset then says what is wrong).
func holds(dir string, n int64) bool {
	if n <= 0 {
		return true
	}
	m, err := dataset.ReadManifest(dir)
	if err != nil {
		return true
	}
	var sum int64
	for _, c := range m.RankEvents {
		sum += c
	}
	return sum >= n
}
