package ingest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// partialPrefix starts the name of an entry being written; it becomes the
// entry by one rename once every file is written and synced, so a run
// killed while writing leaves only a partial directory, never a half entry.
const partialPrefix = ".partial-"

// readCache returns the cached trace of entry, with its source paths as
// this run names its inputs. An entry that exists but cannot be read (a
// write cut short by an older version, a damaged disk) is removed, with a
// warning, so that this run rebuilds it.
func readCache(entry string, names callerNames, opts source.Options) (*model.Trace, bool) {
	if _, err := os.Stat(entry); err != nil {
		return nil, false
	}
	t, err := readEntry(entry)
	if err != nil {
		warn(opts, "the cache entry "+entry+" is incomplete or unreadable: rebuilding it")
		os.RemoveAll(entry)
		return nil, false
	}
	relocate(t, names)
	return t, true
}

// readEntry reads a cache entry: one dataset, or a sharded one
// (LoadRankedCold) joined as Load joins it.
func readEntry(entry string) (*model.Trace, error) {
	if IsSharded(entry) {
		t, trailing, err := readSharded(entry)
		if err != nil {
			return nil, err
		}
		return model.MergeOwned(t, &model.Trace{Skipped: trailing})
	}
	if !dataset.IsDataset(entry) {
		return nil, errors.New("not a dataset")
	}
	t, _, err := dataset.Read(entry)
	return t, err
}

// warnSkippedFiles repeats, for a trace read from the cache, the warnings
// its first read gave about whole files: every skip record of a path that
// is not among the trace's sources (an empty or unrecognised trace file, a
// link loop, a file its reader refused), once per path. Unrecognised files
// not named like traces stay quiet, as they were.
func warnSkippedFiles(t *model.Trace, given []string, opts source.Options) {
	if opts.Warn == nil {
		return
	}
	read := map[string]bool{}
	for _, s := range t.Sources {
		read[s.Path] = true
	}
	for _, s := range t.Skipped {
		if read[s.Source] || s.Reason == unknownReason([]byte{0}) && !traceLike(s.Source) && !slices.Contains(given, s.Source) {
			continue
		}
		read[s.Source] = true
		opts.Warn("skipping " + s.Source + ": " + s.Reason)
	}
}

// commitEntry has write fill a partial directory beside entry and sync it
// (storeEntry, storeSynced), and renames it to entry. Source paths are
// stored absolute (absolute), so that an entry does not depend on the
// working directory of the run that wrote it.
func commitEntry(root, entry string, write func(tmp string) error) error {
	tmp, err := os.MkdirTemp(root, partialPrefix+filepath.Base(entry)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // gone after the rename; cleans up after a failure
	if err := write(tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, entry); err != nil {
		if dataset.IsDataset(entry) || IsSharded(entry) {
			return nil // another run wrote the same entry first
		}
		return err
	}
	return syncDir(root)
}

// absolute is a shallow copy of t whose source and skip paths are absolute.
func absolute(t *model.Trace) *model.Trace {
	return absoluteOwned(t, func(string) bool { return true })
}

// absoluteOf is absolute for the paths of t that are this run's (names'
// owns); the others, the files a dataset among the inputs was ingested
// from as it records them, are kept as they are, as relocate keeps them.
func absoluteOf(t *model.Trace, names callerNames) *model.Trace {
	return absoluteOwned(t, names.owns)
}

// absoluteOwned is a shallow copy of t whose source and skip paths that
// own accepts (as absolute paths) are made absolute.
func absoluteOwned(t *model.Trace, own func(abs string) bool) *model.Trace {
	abs := func(p string) string {
		if a := absPath(p); own(a) {
			return a
		}
		return p
	}
	c := *t
	c.Sources = append([]model.Source(nil), t.Sources...)
	for i := range c.Sources {
		c.Sources[i].Path = abs(c.Sources[i].Path)
	}
	c.Skipped = append([]model.Skip(nil), t.Skipped...)
	for i := range c.Skipped {
		c.Skipped[i].Source = abs(c.Skipped[i].Source)
	}
	return &c
}

func absPath(p string) string {
	if p == "" {
		return p
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// callerNames maps the absolute path of each input file to the name this
// run gives it; relative tells whether those names are relative. roots are
// the inputs as given (files, directories, datasets), absolute: a path
// under one is this run's to name (owns); the others are the paths a
// dataset among the inputs records for the files it was ingested from,
// said as it records them (as the read without the cache says them).
type callerNames struct {
	names    map[string]string
	relative bool
	roots    []string
}

// namesOf is the names of files, the inputs given as paths.
func namesOf(files, paths []string) callerNames {
	c := callerNames{names: make(map[string]string, len(files))}
	for _, f := range files {
		c.names[absPath(f)] = f
		c.relative = c.relative || !filepath.IsAbs(f)
	}
	for _, p := range paths {
		c.roots = append(c.roots, absPath(p))
	}
	return c
}

// owns reports whether the absolute path abs is one of the input files or
// under one of the inputs given.
func (c callerNames) owns(abs string) bool {
	if _, ok := c.names[abs]; ok {
		return true
	}
	for _, r := range c.roots {
		if abs == r || strings.HasPrefix(abs, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// relocate renames the absolute source paths of a cached trace back to the
// caller's names; another path of the caller's (a directory the walk
// skipped) is made relative to the working directory when the caller's
// names are relative; a path that is not the caller's (owns) stays as it is.
func relocate(t *model.Trace, c callerNames) {
	for i := range t.Sources {
		t.Sources[i].Path = c.name(t.Sources[i].Path)
	}
	for i := range t.Skipped {
		t.Skipped[i].Source = c.name(t.Skipped[i].Source)
	}
}

func (c callerNames) name(abs string) string {
	if n, ok := c.names[abs]; ok {
		return n
	}
	if !c.relative || !filepath.IsAbs(abs) || !c.owns(abs) {
		return abs
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return abs
}

// stalePartial reports whether d is a partial entry left over an hour ago
// (a run killed while writing); younger ones may still be in progress.
func stalePartial(d fs.DirEntry) bool {
	if !strings.HasPrefix(d.Name(), partialPrefix) {
		return false
	}
	info, err := d.Info()
	return err == nil && time.Since(info.ModTime()) > time.Hour
}

// syncTree fsyncs every file under dir and the directories themselves,
// syncers at a time: one after another, each fsync waits for its own
// journal commit (4 ms or more each on a busy disk, most of a cold run's
// wait at exit for the cache entry), where fsyncs in flight together share
// commits.
func syncTree(dir string) error {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		paths = append(paths, p)
		return err
	})
	if err != nil {
		return err
	}
	var g errgroup.Group
	g.SetLimit(syncers)
	for _, p := range paths {
		g.Go(func() error { return syncDir(p) }) // opening read-only and syncing works for files and directories
	}
	return g.Wait()
}

// syncers is how many fsyncs syncTree keeps in flight: they wait on the
// disk, not a core, each on a thread of its own.
const syncers = 16

func syncDir(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
