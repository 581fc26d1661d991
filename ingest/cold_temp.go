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
// the inputs. remove deletes it and everything in it, and the directories
// made for it while empty; the caller calls it once the entry is no longer
// read, also on error. Temporary caches over a day old in the same place
// are removed first.
func TempCache(cacheDir string) (dir string, remove func(), err error) {
	base := cacheDir
	if base == "" {
		if d, err := source.CacheDir(); err == nil {
			base = d
		}
	}
	made := missingDirs(base)
	if base != "" && !source.Writable(base) {
		removeDirs(made)
		base, made = "", nil // os.TempDir
	}
	removeStaleTemps(base)
	dir, err = os.MkdirTemp(base, TempPrefix)
	if err != nil {
		removeDirs(made)
		return "", nil, err
	}
	return dir, func() {
		os.RemoveAll(dir)
		removeDirs(made)
	}, nil
}

// missingDirs lists dir and those of its parents that do not exist yet,
// innermost first: what making dir makes.
func missingDirs(dir string) []string {
	var out []string
	for d := dir; d != "" && d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		out = append(out, d)
	}
	return out
}

// removeDirs removes the directories, innermost first, while they are
// empty.
func removeDirs(dirs []string) {
	for _, d := range dirs {
		if os.Remove(d) != nil {
			return
		}
	}
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
