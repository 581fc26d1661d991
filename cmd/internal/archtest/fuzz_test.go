package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	fuzzTarget = regexp.MustCompile(`(?m)^func Fuzz\w*\(f \*testing\.F\)`)
	fuzzMain   = regexp.MustCompile(`(?m)^func TestMain\(m \*testing\.M\) \{ fuzzmain\.Run\(m\) \}`)
)

// TestFuzzedPackagesHaveTheBudget: every package with a fuzz target runs
// its tests under samples/fuzzmain, whose short minimisation budget keeps
// the engine from spending each minute minimising one input
// (docs/fuzzing.md).
func TestFuzzedPackagesHaveTheBudget(t *testing.T) {
	fuzzed, budget := map[string]bool{}, map[string]bool{}
	root := filepath.Join("..", "..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(p))
		fuzzed[dir] = fuzzed[dir] || fuzzTarget.Match(b)
		budget[dir] = budget[dir] || fuzzMain.Match(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for dir, ok := range fuzzed {
		if ok {
			dirs = append(dirs, dir)
		}
	}
	sort.Strings(dirs)
	if len(dirs) < 8 {
		t.Fatalf("found fuzz targets in %d packages only: %v", len(dirs), dirs)
	}
	for _, dir := range dirs {
		if !budget[dir] {
			t.Errorf("%s has fuzz targets but no `func TestMain(m *testing.M) { fuzzmain.Run(m) }` (samples/fuzzmain)", dir)
		}
	}
}
