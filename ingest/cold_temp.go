package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// TempPrefix starts the name of a temporary cache (TempCache).
const TempPrefix = ".nocache-"

// tempStale is the age past which a temporary cache left behind (a run
// killed before it removed its own) is removed by the next TempCache.
const tempStale = 24 * time.Hour

// TempCache makes a temporary directory for the cache entry of one run
// that keeps no cache (--no-cache): in cacheDir, or when that is "" in the
// user cache directory (source.CacheDir), else in os.TempDir; never beside
// the inputs. remove deletes it and everything in it; the caller calls it
// once the entry is no longer read, also on error. Temporary caches over
// a day old in the same place are removed first.
func TempCache(cacheDir string) (dir string, remove func(), err error) {
	base := cacheDir
	if base == "" {
		if d, err := source.CacheDir(); err == nil && source.Writable(d) {
			base = d
		}
	}
	if base != "" {
		if err := os.MkdirAll(base, 0o755); err != nil {
			return "", nil, err
		}
		removeStaleTemps(base)
	}
	dir, err = os.MkdirTemp(base, TempPrefix)
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// removeStaleTemps removes the temporary caches in base older than
// tempStale.
func removeStaleTemps(base string) {
	entries, _ := os.ReadDir(base)
	for _, d := range entries {
		if !d.IsDir() || !strings.HasPrefix(d.Name(), TempPrefix) {
			continue
		}
		if info, err := d.Info(); err == nil && time.Since(info.ModTime()) > tempStale {
			os.RemoveAll(filepath.Join(base, d.Name()))
		}
	}
}
