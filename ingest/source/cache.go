package source

import (
	"errors"
	"os"
	"path/filepath"
)

// CacheEnv names the environment variable that overrides where tpptrace
// keeps its caches (the dataset cache, nsys exports).
const CacheEnv = "TPPTRACE_CACHE"

// CacheDir is where tpptrace's caches live: $TPPTRACE_CACHE, else
// tpptrace/ under the user cache directory (os.UserCacheDir). Caches are
// never written beside the inputs, so a read-only command leaves shared
// trace folders as they were.
func CacheDir() (string, error) {
	if d := os.Getenv(CacheEnv); d != "" {
		return d, nil
	}
	uc, err := os.UserCacheDir()
	if err != nil {
		return "", errors.New("no cache directory: set " + CacheEnv + " or HOME")
	}
	return filepath.Join(uc, "tpptrace"), nil
}

// Writable reports whether dir exists or can be made, and takes files. A
// parent without write bits counts as read-only even for root, so that
// shared, read-only folders are never written into.
func Writable(dir string) bool {
	if st, err := os.Stat(filepath.Dir(dir)); err == nil && st.Mode().Perm()&0o222 == 0 {
		return false
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}
