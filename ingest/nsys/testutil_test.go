package nsys

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDir returns ../shared/<elem...> beside the repository root, or
// skips the test when it is absent.
func sharedDir(t testing.TB, elem ...string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("repository root (go.mod) not found")
		}
		dir = parent
	}
	p := filepath.Join(append([]string{dir, "..", "shared"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is absent: %v", p, err)
	}
	return p
}
