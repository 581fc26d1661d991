package cli

import (
	"os"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
)

// TestMain gives the package's tests a dataset cache of their own, so that
// they never read an entry an earlier build left in the user's cache
// directory, and never fill it.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tpptrace-cli-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv(ingest.CacheEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
