package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// A beside entry is the cache of the parse of the files given beside a
// dataset (besideFormats: LoadRankedCaching): one dataset per group of
// files (BesideDir), in the order Load reads them, and besideFile, written
// with them and renamed into place with them (storeEntry), so that an
// entry holding it is complete.
const besideFile = "beside.json"

// besideVersion changes with what a beside entry holds: beside-2 holds
// Fallback parts reduced (besideParts) and the ranks they time
// (besideMeta.Timed), which a reader of beside-1 would take for parts that
// hold no events beside any dataset; beside-3 is keyed by the files'
// absolute paths, holds them absolute and the names its writer gave them
// (besideMeta.Names).
const besideVersion = "beside-3"

// besideRootTag is hashed before the first input's path for the root of
// the beside entries (cacheRootOf): pruning them leaves the entries of the
// whole read of the same inputs (LoadCached) be, and theirs leaves them.
const besideRootTag = "beside\x00"

// besideMeta is the content of besideFile.
type besideMeta struct {
	Version  string   `json:"version"` // besideVersion
	Formats  []string `json:"formats"` // the groups' formats, in order
	Warnings []string `json:"warnings,omitempty"`
	Timed    []int32  `json:"timed,omitempty"` // besideParts.timed
	// Names are the names the run that wrote the entry gave the files
	// (besideNames), which its warnings say; the traces' paths are
	// absolute (absolute), and a read says both with its own names.
	Names []string `json:"names,omitempty"`
}

// besideParses counts the groups of files beside a dataset parsed
// (readBesideGroups), so that the tests see a read from the cache.
var besideParses atomic.Int64

// besideWriteStart is called as the background write of a beside entry
// begins; tests hold the write there.
var besideWriteStart = func() {}

// besideReader reads the groups of files beside a dataset (loadBeside) as
// readBesideGroups does, their warnings kept, to be said: parsed
// (parseBeside) or through their cache entry (besideCache.read).
type besideReader func(in inputs, paths []string, beside []besideGroup, opts source.Options) (besideParts, error)

// parseBeside is the besideReader that parses the files every time.
func parseBeside(_ inputs, _ []string, beside []besideGroup, opts source.Options) (besideParts, error) {
	return readBesideGroups(context.Background(), beside, opts)
}

// besideCache keeps the parse of the files beside a dataset in a beside
// entry (its read is the besideReader) in dir, or when dir is "" in a root
// of its own under the user cache directory (cacheRootOf), pruned of older
// entries. A new entry is written in the background: wait returns once it
// is.
type besideCache struct {
	dir     string
	written chan struct{} // closed once the entry is written; nil: none begun
}

// wait returns once the entry the read began writing is written (or its
// write failed).
func (c *besideCache) wait() {
	if c.written != nil {
		<-c.written
	}
}

// read reads the entry of the files when there is one, else parses them
// and writes it. Without a writable cache, or when writing fails, the
// parse is all; an entry that cannot be read is removed and written again.
func (c *besideCache) read(in inputs, paths []string, beside []besideGroup, opts source.Options) (besideParts, error) {
	if len(beside) == 0 {
		return parseBeside(in, paths, beside, opts) // none: only files no format claims
	}
	root := cacheRootOf(paths[0], c.dir, besideRootTag)
	key, err := besideKey(in.files, opts)
	if root == "" || err != nil {
		return parseBeside(in, paths, beside, opts)
	}
	entry := filepath.Join(root, key)
	side, err := readBesideEntry(entry, namesOf(in.files, paths), beside, opts)
	if err == nil || errors.Is(err, source.ErrMemoryBudget) {
		return side, err
	}
	os.RemoveAll(entry) // none, or damaged: parsed and written again
	return c.parse(root, entry, beside, opts)
}

// parse parses the groups, recording their warnings, and begins writing
// them as the entry, from copies of the traces with absolute paths (the
// merge that follows takes the parts' event columns: they have none, but
// their fields are reset); a failed write leaves no entry and is not said.
func (c *besideCache) parse(root, entry string, beside []besideGroup, opts source.Options) (besideParts, error) {
	if opts.Warn == nil {
		opts.Warn = func(string) {} // kept all the same, for a run that hears them
	}
	side, err := readBesideGroups(context.Background(), beside, opts)
	if err != nil {
		return besideParts{}, err
	}
	meta := besideMeta{Version: besideVersion, Formats: formatsOf(beside), Warnings: side.warns, Timed: side.timed, Names: besideNames(beside)}
	copies := make([]*model.Trace, len(side.traces))
	for i, t := range side.traces {
		copies[i] = absolute(t)
	}
	c.written = make(chan struct{})
	start := besideWriteStart // (read here: a test sets it again while the write runs)
	go func() {
		defer close(c.written)
		start()
		_ = storeEntry(root, entry, c.dir == "", func(tmp string) error {
			return writeBesideEntry(tmp, copies, meta)
		})
	}()
	return side, nil
}

// besideKey names the beside entry of files: cacheKey (their absolute
// paths, sizes and mtimes, the options that change the parse) and their
// absolute paths in this run's order, so that runs naming them otherwise
// (relative to another directory) share the entry (readBesideEntry says
// its paths with each run's names).
func besideKey(files []string, opts source.Options) (string, error) {
	key, err := cacheKey(files, opts)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintln(h, besideVersion, key)
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00", absPath(f))
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// besideManifest is the manifest of the datasets of the files beside a
// dataset or the timeline's shards (a beside entry's, the cold build's
// BesideDir), only ever read whole: no events file for each rank the NCCL
// logs name (512 empty files for 512 ranks, most of such a write).
var besideManifest = dataset.Manifest{Tool: cacheManifest.Tool, Fast: true, OnlyTimed: true}

// writeBesideEntry writes the groups' traces and besideFile under tmp.
func writeBesideEntry(tmp string, extra []*model.Trace, meta besideMeta) error {
	for i, t := range extra {
		if err := dataset.Write(BesideDir(tmp, i), t, besideManifest); err != nil {
			return fmt.Errorf("%s beside the dataset: %w", meta.Formats[i], err)
		}
	}
	b, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(tmp, besideFile), append(b, '\n'), 0o644)
}

// readBesideEntry reads the groups' traces from entry, each followed by
// the memory check its parse made (besideGroup.read), and the warnings
// their parse gave, to be said, with the ranks timed by the Fallback parts
// reduced (readBesideGroups). Past the memory budget
// the error wraps source.ErrMemoryBudget, as the parse's does. Any other
// error (fs.ErrNotExist when there is no entry; an entry that does not
// hold these groups or cannot be read) has the groups parsed again.
func readBesideEntry(entry string, files callerNames, beside []besideGroup, opts source.Options) (besideParts, error) {
	meta, err := readBesideMeta(entry, beside)
	if err != nil {
		return besideParts{}, err
	}
	names := besideNames(beside)
	if len(meta.Names) != len(names) {
		return besideParts{}, fmt.Errorf("%s: %d names for %d files", besideFile, len(meta.Names), len(names))
	}
	extra, err := readBesideChecked(entry, func() error { return source.CheckMemory(opts.MaxMemory) })
	if err == nil && len(extra) != len(meta.Formats) {
		err = fmt.Errorf("%d datasets for the formats %q", len(extra), meta.Formats)
	}
	if err != nil {
		return besideParts{}, err
	}
	for _, t := range extra {
		relocate(t, files)
	}
	return besideParts{traces: extra, warns: renamed(meta.Warnings, meta.Names, names), timed: meta.Timed}, nil
}

// besideNames lists the groups' files, in order, as this run names them.
func besideNames(beside []besideGroup) []string {
	var out []string
	for _, g := range beside {
		out = append(out, g.files...)
	}
	return out
}

// renamed is warns with each file's name from was said as now names it
// (was[i] and now[i] are one file), in one pass, the longest name first
// where one starts another.
func renamed(warns, was, now []string) []string {
	if slices.Equal(was, now) {
		return warns
	}
	order := make([]int, len(was))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(was[b]) - len(was[a]) })
	pairs := make([]string, 0, 2*len(was))
	for _, i := range order {
		pairs = append(pairs, was[i], now[i])
	}
	r := strings.NewReplacer(pairs...)
	out := make([]string, len(warns))
	for i, w := range warns {
		out[i] = r.Replace(w)
	}
	return out
}

// readBesideMeta reads the entry's besideFile and checks that it lists
// the groups' formats, in order.
func readBesideMeta(entry string, beside []besideGroup) (besideMeta, error) {
	var meta besideMeta
	b, err := os.ReadFile(filepath.Join(entry, besideFile))
	if err != nil {
		return meta, err
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		return meta, fmt.Errorf("%s: %w", besideFile, err)
	}
	if want := formatsOf(beside); meta.Version != besideVersion || !slices.Equal(meta.Formats, want) {
		return meta, fmt.Errorf("%s: version %q, formats %q, want %q, %q", besideFile, meta.Version, meta.Formats, besideVersion, want)
	}
	return meta, nil
}

// formatsOf lists the groups' formats, in order.
func formatsOf(beside []besideGroup) []string {
	out := make([]string, len(beside))
	for i, g := range beside {
		out[i] = g.format.Name
	}
	return out
}
