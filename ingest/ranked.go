package ingest

import (
	"fmt"
	"path/filepath"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// LoadRanked reads paths rank by rank (dataset.ReadRanked, docs/memory.md)
// when they are one dataset directory, holding at least minEvents events,
// and nothing else; ok is false, with nothing read, for any other inputs
// (Load reads those). The cross-rank
// trace is validated as Load validates the whole one; each rank's events
// are checked when they are read. annotation picks the CPU range
// annotations kept of every rank (dataset.ReadRanked).
func LoadRanked(paths []string, minEvents int64, annotation func(name string) bool) (rk *dataset.Ranked, ok bool, err error) {
	in, err := expand(paths)
	if err != nil || len(in.datasets) != 1 || len(in.files)+len(in.sharded)+len(in.skipped) > 0 || !holds(in.datasets[0], minEvents) {
		return nil, false, nil
	}
	rk, _, err = dataset.ReadRanked(in.datasets[0], annotation)
	if err != nil {
		return nil, true, err
	}
	if err := rk.Trace.Validate(); err != nil {
		return nil, true, fmt.Errorf("the trace is invalid: %w", err)
	}
	return rk, true, nil
}

// LoadRankedCached is LoadRanked of the warm dataset cache entry of paths
// (LoadCached): ok is false, with nothing read, when LoadCached would not
// read an entry (no trace files among the inputs, no cache, no entry yet),
// when the entry holds fewer than minEvents events
// or when the entry cannot be read (LoadCached then rebuilds it).
func LoadRankedCached(paths []string, opts source.Options, cacheDir string, minEvents int64, annotation func(name string) bool) (*dataset.Ranked, bool) {
	in, err := expand(paths)
	if err != nil || len(in.files) == 0 {
		return nil, false
	}
	key, err := cacheKey(in.files, opts)
	root := cacheRoot(paths[0], cacheDir)
	if err != nil || root == "" {
		return nil, false
	}
	entry := filepath.Join(root, key)
	if !dataset.IsDataset(entry) || !holds(entry, minEvents) {
		return nil, false
	}
	rk, _, err := dataset.ReadRanked(entry, annotation)
	if err != nil {
		return nil, false
	}
	relocate(rk.Trace, namesOf(in.files))
	warnSkippedFiles(rk.Trace, paths, opts)
	return rk, true
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
