package shared

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDirFindsOrSkips(t *testing.T) {
	root, ok := repoRoot()
	if !ok {
		t.Fatal("tests run inside the repository: go.mod must be found")
	}
	if _, err := os.Stat(filepath.Join(root, "samples", "shared", "shared.go")); err != nil {
		t.Fatalf("root %s is not this repository", root)
	}
	var skipped bool
	t.Run("absent", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Dir(t, "no-such-folder-in-shared")
		t.Fatal("Dir must skip when the folder is absent")
	})
	if !skipped {
		t.Fatal("absent data did not skip")
	}
}
