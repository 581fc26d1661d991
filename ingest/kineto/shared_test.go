package kineto

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// sharedDir returns ../shared/<elem...> relative to the repository root, or
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
			t.Skip("repository root not found")
		}
		dir = parent
	}
	p := filepath.Join(append([]string{dir, "..", "shared"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data %s is absent: %v", p, err)
	}
	return p
}

// traceSets returns the Kineto trace sets: directory name -> files.
func traceSets(t testing.TB) map[string][]string {
	root := sharedDir(t, "traces", "kineto")
	sets := map[string][]string{}
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() || strings.Contains(d.Name(), "oracle") {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(root, d.Name(), "*.json*"))
		sort.Strings(files)
		sets[d.Name()] = files
	}
	return sets
}
