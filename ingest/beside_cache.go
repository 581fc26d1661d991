package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// A beside entry is the cache of the parse of the NCCL logs and NVML
// samples given beside a dataset (LoadRankedCaching): one dataset per
// group of files (BesideDir), in the order Load reads them, and
// besideFile, written with them and renamed into place with them
// (storeEntry), so that an entry holding it is complete.
const besideFile = "beside.json"

// besideVersion changes with what a beside entry holds.
const besideVersion = "beside-1"

// besideRootTag is hashed before the first input's path for the root of
// the beside entries (cacheRootOf): pruning them leaves the entries of the
// whole read of the same inputs (LoadCached) be, and theirs leaves them.
const besideRootTag = "beside\x00"

// besideMeta is the content of besideFile.
type besideMeta struct {
	Version string        `json:"version"` // besideVersion
	Groups  []besideSaved `json:"groups"`
}

// besideSaved is one group of a beside entry: its format, and what its
// parse warned of, in order, said again when the entry is read.
type besideSaved struct {
	Format   string   `json:"format"`
	Warnings []string `json:"warnings,omitempty"`
}

// besideParses counts the groups of files beside a dataset parsed
// (readBesideGroups), so that the tests see a read from the cache.
var besideParses atomic.Int64

// besideWriteStart is called as the background write of a beside entry
// begins; tests hold the write there.
var besideWriteStart = func() {}

// besideReader reads the groups of files beside a dataset (loadBeside):
// parsed (parseBeside) or through their cache entry (besideCache.read); ok
// is false when one cannot be read.
type besideReader func(in inputs, paths []string, beside []besideGroup, opts source.Options) ([]*model.Trace, bool)

// parseBeside is the besideReader that parses the files every time.
func parseBeside(_ inputs, _ []string, beside []besideGroup, opts source.Options) ([]*model.Trace, bool) {
	return readBesideGroups(beside, opts)
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
func (c *besideCache) read(in inputs, paths []string, beside []besideGroup, opts source.Options) ([]*model.Trace, bool) {
	if len(beside) == 0 {
		return readBesideGroups(beside, opts) // none: only files no format claims
	}
	root := cacheRootOf(paths[0], c.dir, besideRootTag)
	key, err := besideKey(in.files, opts)
	if root == "" || err != nil {
		return readBesideGroups(beside, opts)
	}
	entry := filepath.Join(root, key)
	extra, done, err := readBesideEntry(entry, beside, opts)
	if err == nil {
		return extra, done
	}
	os.RemoveAll(entry) // none, or damaged: parsed and written again
	return c.parse(root, entry, beside, opts)
}

// parse parses the groups, recording their warnings, and begins writing
// them as the entry, from copies of the traces (the merge that follows
// takes the parts' event columns: they have none, but their fields are
// reset); a failed write leaves no entry and is not said.
func (c *besideCache) parse(root, entry string, beside []besideGroup, opts source.Options) ([]*model.Trace, bool) {
	extra, saved, ok := parseRecorded(beside, opts)
	if !ok {
		return nil, false
	}
	copies := make([]*model.Trace, len(extra))
	for i, t := range extra {
		c := *t
		copies[i] = &c
	}
	c.written = make(chan struct{})
	go func() {
		defer close(c.written)
		besideWriteStart()
		_ = storeEntry(root, entry, c.dir == "", func(tmp string) error {
			return writeBesideEntry(tmp, copies, saved)
		})
	}()
	return extra, true
}

// besideKey names the beside entry of files: cacheKey (their paths,
// sizes and mtimes, the options that change the parse) and the names this
// run gives them, which the warnings and source paths stored say.
func besideKey(files []string, opts source.Options) (string, error) {
	key, err := cacheKey(files, opts)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintln(h, besideVersion, key)
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00", f)
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// parseRecorded is readBesideGroups that also records each group's
// warnings, as they are passed on.
func parseRecorded(beside []besideGroup, opts source.Options) ([]*model.Trace, []besideSaved, bool) {
	saved := make([]besideSaved, len(beside))
	extra := make([]*model.Trace, 0, len(beside))
	for i, g := range beside {
		saved[i].Format = g.format.Name
		t, ok := readBesideGroups([]besideGroup{g}, recording(opts, &saved[i].Warnings))
		if !ok {
			return nil, nil, false
		}
		extra = append(extra, t...)
	}
	return extra, saved, true
}

// recording is opts whose warnings are also appended to said.
func recording(opts source.Options, said *[]string) source.Options {
	var mu sync.Mutex
	warn := opts.Warn
	opts.Warn = func(msg string) {
		mu.Lock()
		*said = append(*said, msg)
		mu.Unlock()
		if warn != nil {
			warn(msg)
		}
	}
	return opts
}

// besideManifest is the manifest of a beside entry's datasets, only ever
// read whole: no events file for each rank the NCCL logs name (512 empty
// files for 512 ranks, most of the entry's write).
var besideManifest = dataset.Manifest{Tool: cacheManifest.Tool, Fast: true, OnlyTimed: true}

// writeBesideEntry writes the groups' traces and besideFile under tmp.
func writeBesideEntry(tmp string, extra []*model.Trace, saved []besideSaved) error {
	for i, t := range extra {
		if err := dataset.Write(BesideDir(tmp, i), t, besideManifest); err != nil {
			return fmt.Errorf("%s beside the dataset: %w", saved[i].Format, err)
		}
	}
	b, err := json.Marshal(besideMeta{Version: besideVersion, Groups: saved})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(tmp, besideFile), append(b, '\n'), 0o644)
}

// readBesideEntry reads the groups' traces from entry, each followed by
// the memory check its parse made (besideGroup.read), then says the
// warnings their parse gave; done is false, with nothing said, when the
// memory budget is spent (as the parse fails then: the whole read says
// them). err wraps fs.ErrNotExist when there is no entry, and says what is
// wrong with one that does not hold these groups or cannot be read;
// either way the groups are parsed again.
func readBesideEntry(entry string, beside []besideGroup, opts source.Options) (extra []*model.Trace, done bool, err error) {
	meta, err := readBesideMeta(entry, beside)
	if err != nil {
		return nil, false, err
	}
	for i, g := range meta.Groups {
		t, _, err := dataset.Read(BesideDir(entry, i))
		if err != nil {
			return nil, false, fmt.Errorf("%s beside the dataset: %w", g.Format, err)
		}
		if source.CheckMemory(opts.MaxMemory) != nil {
			return nil, false, nil
		}
		extra = append(extra, t)
	}
	for _, g := range meta.Groups {
		for _, w := range g.Warnings {
			warn(opts, w)
		}
	}
	return extra, true, nil
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
	formats := make([]string, len(beside))
	for i, g := range beside {
		formats[i] = g.format.Name
	}
	saved := make([]string, len(meta.Groups))
	for i, g := range meta.Groups {
		saved[i] = g.Format
	}
	if meta.Version != besideVersion || !slices.Equal(saved, formats) {
		return meta, fmt.Errorf("%s: version %q, groups %q, want %q, %q", besideFile, meta.Version, saved, besideVersion, formats)
	}
	return meta, nil
}
