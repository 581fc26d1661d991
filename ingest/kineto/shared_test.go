package kineto

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

// traceSets returns the Kineto trace sets: directory name -> files.
func traceSets(t testing.TB) map[string][]string {
	sets, err := traceSetsIn(shared.Dir(t, "traces", "kineto"))
	if err != nil {
		t.Fatal(err)
	}
	return sets
}

func traceSetsIn(root string) (map[string][]string, error) {
	sets := map[string][]string{}
	dirs, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if !d.IsDir() || strings.Contains(d.Name(), "oracle") {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(root, d.Name(), "*.json*"))
		sort.Strings(files)
		sets[d.Name()] = files
	}
	return sets, nil
}
