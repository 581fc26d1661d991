package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// cacheVersion changes whenever a reader changes what it produces, so that
// old cached datasets are not reused.
const cacheVersion = "ingest-3"

// CacheDirName is the cache directory made beside the inputs.
const CacheDirName = ".tpptrace-cache"

// LoadCached is Load with a dataset cache, for commands that re-read the
// same raw traces. The cache lives in cacheDir, or when that is "" beside
// the first input (<dir>/.tpptrace-cache or <file>.tpptrace-cache), or
// under os.UserCacheDir when that place is not writable. An entry is keyed
// by the inputs' paths, sizes and mtimes and the options that change the
// result, and is reused while they are unchanged. Inputs that are all
// datasets are read directly. Failing to write the cache is only a warning.
func LoadCached(ctx context.Context, paths []string, opts source.Options, cacheDir string) (*model.Trace, error) {
	in, err := expand(paths)
	if err != nil {
		return nil, err
	}
	if len(in.files) == 0 {
		return Load(ctx, paths, opts)
	}
	key, err := cacheKey(in.files, opts)
	if err != nil {
		return Load(ctx, paths, opts)
	}
	root := cacheRoot(paths[0], cacheDir)
	entry := filepath.Join(root, key)
	if dataset.IsDataset(entry) {
		if t, _, err := dataset.Read(entry); err == nil {
			return t, nil
		}
	}
	t, err := Load(ctx, paths, opts)
	if err != nil {
		if cacheDir == "" {
			os.Remove(root) // only when still empty: nothing is left behind a failed load
		}
		return nil, err
	}
	if err := writeCache(root, entry, t, cacheDir == ""); err != nil {
		warn(opts, fmt.Sprintf("not caching the dataset: %v", err))
	}
	return t, nil
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

// cacheRoot picks the cache directory: the one given, else beside the
// first input, else the user cache directory when that is not writable.
func cacheRoot(first, given string) string {
	if given != "" {
		return given
	}
	dir := first + CacheDirName
	if st, err := os.Stat(first); err == nil && st.IsDir() {
		dir = filepath.Join(first, CacheDirName)
	}
	if writable(dir) {
		return dir
	}
	if uc, err := os.UserCacheDir(); err == nil {
		abs, _ := filepath.Abs(first)
		sum := sha256.Sum256([]byte(abs))
		return filepath.Join(uc, "tpptrace", hex.EncodeToString(sum[:8]))
	}
	return dir
}

// writable reports whether dir exists or can be made, and takes files. A
// parent without write bits counts as read-only even for root, so that
// shared, read-only trace folders are never written into.
func writable(dir string) bool {
	if st, err := os.Stat(filepath.Dir(dir)); err == nil && st.Mode().Perm()&0o222 == 0 {
		return false
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false
	}
	f, err := os.CreateTemp(dir, ".probe")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}

// writeCache writes entry and, when the root is our own (prune), removes
// the older entries in it.
func writeCache(root, entry string, t *model.Trace, prune bool) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	if err := dataset.Write(entry, t, dataset.Manifest{Tool: "tpptrace (cache)"}); err != nil {
		return err
	}
	if !prune {
		return nil
	}
	old, _ := os.ReadDir(root)
	for _, d := range old {
		if p := filepath.Join(root, d.Name()); d.IsDir() && p != entry && len(d.Name()) == 20 && !strings.HasPrefix(d.Name(), ".") {
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
