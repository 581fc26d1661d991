package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// cacheVersion changes whenever a reader changes what it produces, so that
// old cached datasets are not reused.
const cacheVersion = "ingest-6"

// CacheDirName is the cache directory older versions made beside the
// inputs; folders of that name are still skipped when inputs are expanded.
const CacheDirName = ".tpptrace-cache"

// LoadCached is Load with a dataset cache, for commands that re-read the
// same raw traces. The cache lives in cacheDir, or when that is "" under
// $TPPTRACE_CACHE or the user cache directory (cacheRoot), never beside the
// inputs. An entry is keyed
// by the inputs' paths, sizes and mtimes and the options that change the
// result, and is reused while they are unchanged. Inputs that are all
// datasets are read directly. Failing to write the cache is only a warning.
func LoadCached(ctx context.Context, paths []string, opts source.Options, cacheDir string) (*model.Trace, error) {
	t, wait, err := LoadCachedAsync(ctx, paths, opts, cacheDir)
	wait()
	return t, err
}

// LoadCachedAsync is LoadCached that writes a new cache entry in the
// background, from a snapshot of the trace, so that the caller may analyse
// (and change) the trace meanwhile; wait returns once the entry is written
// (a failure is a warning on opts.Warn). wait is never nil.
func LoadCachedAsync(ctx context.Context, paths []string, opts source.Options, cacheDir string) (t *model.Trace, wait func(), err error) {
	wait = func() {}
	in, err := expand(paths)
	if err != nil {
		return nil, wait, err
	}
	if len(in.files) == 0 {
		t, err = Load(ctx, paths, opts)
		return t, wait, err
	}
	key, err := inputsKey(in, opts)
	if err != nil {
		t, err = Load(ctx, paths, opts)
		return t, wait, err
	}
	root := cacheRoot(paths[0], cacheDir)
	if root == "" {
		warn(opts, "no writable place for the dataset cache (set "+CacheEnv+" or HOME): not caching")
		t, err = Load(ctx, paths, opts)
		return t, wait, err
	}
	entry := filepath.Join(root, key)
	names := namesOf(in.files, paths)
	if t, ok := readCache(entry, names, opts); ok {
		warnSkippedFiles(t, paths, opts)
		return t, wait, nil
	}
	t, err = Load(ctx, paths, opts)
	if err != nil {
		if cacheDir == "" {
			os.Remove(root) // only when still empty: nothing is left behind a failed load
		}
		return nil, wait, err
	}
	return t, writeBehind(root, entry, absoluteOf(snapshot(t), names), cacheDir == "", opts), nil
}

// writeBehind writes the cache entry in a goroutine and returns the wait.
func writeBehind(root, entry string, t *model.Trace, prune bool, opts source.Options) func() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := writeCache(root, entry, t, prune); err != nil {
			warn(opts, fmt.Sprintf("not caching the dataset: %v", err))
		}
	}()
	return func() { <-done }
}

// inputsKey is cacheKey of the inputs: their files, and every file of the
// datasets and sharded datasets among them, so that a dataset written
// again in place (another job ingested into the same directory) names
// another entry rather than the stale one.
func inputsKey(in inputs, opts source.Options) (string, error) {
	files := in.files
	for _, dir := range append(append([]string(nil), in.datasets...), in.sharded...) {
		inside, err := filesUnder(dir)
		if err != nil {
			return "", err
		}
		files = append(files[:len(files):len(files)], inside...)
	}
	return cacheKey(files, opts)
}

// filesUnder lists the regular files under dir.
func filesUnder(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return err
	})
	return out, err
}

// cacheKey hashes the inputs' absolute paths, sizes and mtimes, and the
// options that change the trace.
func cacheKey(files []string, opts source.Options) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, cacheVersion)
	sorted := append([]string(nil), files...)
	sort.Strings(sorted)
	for _, f := range sorted {
		abs, err := filepath.Abs(f)
		if err != nil {
			return "", err
		}
		st, err := os.Stat(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", abs, st.Size(), st.ModTime().UnixNano())
	}
	if opts.StepRegex != nil {
		fmt.Fprintf(h, "step %s\n", opts.StepRegex.String())
	}
	keys := make([]string, 0, len(opts.RankMap))
	for k := range opts.RankMap {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(h, "rank %s=%d\n", k, opts.RankMap[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// CacheEnv names the environment variable that overrides where the cache
// lives.
const CacheEnv = source.CacheEnv

// cacheRoot picks the cache directory: the one given, else
// <source.CacheDir>/<hash of the first input's absolute path>
// ($TPPTRACE_CACHE or the user cache directory). Nothing is ever written
// beside the inputs: a read-only command leaves shared trace folders as
// they were. "" when no such place is writable (no cache).
func cacheRoot(first, given string) string {
	return cacheRootOf(first, given, "")
}

// cacheRootOf is cacheRoot with tag before the path hashed, so that
// entries of another kind (besideRootTag) have a root of their own,
// whose pruning leaves the others be.
func cacheRootOf(first, given, tag string) string {
	if given != "" {
		return given
	}
	base, err := source.CacheDir()
	if err != nil {
		return ""
	}
	abs, _ := filepath.Abs(first)
	sum := sha256.Sum256([]byte(tag + abs))
	if dir := filepath.Join(base, hex.EncodeToString(sum[:8])); source.Writable(dir) {
		return dir
	}
	return "" // nowhere to write: no cache
}

// writeCache writes entry (atomically: cache_entry.go) and, when the root
// is our own (prune), removes the older entries in it. The dataset's files
// are synced as each is written (dataset.Manifest.Sync), so that the wait
// for the disk overlaps the rest of the write instead of following it.
func writeCache(root, entry string, t *model.Trace, prune bool) error {
	m := cacheManifest
	m.Sync = true
	return storeSynced(root, entry, prune, func(tmp string) error {
		return dataset.Write(tmp, t, m)
	})
}

// storeEntry makes root, writes entry through write, syncs what it wrote
// (commitEntry) and, when prune, removes the older entries in root.
func storeEntry(root, entry string, prune bool, write func(tmp string) error) error {
	return storeSynced(root, entry, prune, func(tmp string) error {
		if err := write(tmp); err != nil {
			return err
		}
		return syncTree(tmp)
	})
}

// storeSynced is storeEntry of a write that leaves every file and
// directory it made synced.
func storeSynced(root, entry string, prune bool, write func(tmp string) error) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	if err := commitEntry(root, entry, write); err != nil {
		return err
	}
	if !prune {
		return nil
	}
	old, _ := os.ReadDir(root)
	for _, d := range old {
		p := filepath.Join(root, d.Name())
		if d.IsDir() && p != entry && (len(d.Name()) == 20 && !strings.HasPrefix(d.Name(), ".") || stalePartial(d)) {
			os.RemoveAll(p)
		}
	}
	return nil
}

func warn(opts source.Options, msg string) {
	if opts.Warn != nil {
		opts.Warn(msg)
	}
}
