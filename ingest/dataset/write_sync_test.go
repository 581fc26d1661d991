package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSyncedWriteSameFiles: a dataset written with Sync holds the same
// files, byte for byte, as one written without.
func TestSyncedWriteSameFiles(t *testing.T) {
	tr := buildTrace(t, 3)
	addSamples(tr)
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	plain, synced := filepath.Join(t.TempDir(), "plain"), filepath.Join(t.TempDir(), "synced")
	if err := Write(plain, tr, Manifest{Fast: true, Created: created}); err != nil {
		t.Fatal(err)
	}
	if err := Write(synced, tr, Manifest{Fast: true, Sync: true, Created: created}); err != nil {
		t.Fatal(err)
	}
	want, got := treeFiles(t, plain), treeFiles(t, synced)
	if len(want) < 5 || len(got) != len(want) {
		t.Fatalf("synced write: %d files, plain: %d", len(got), len(want))
	}
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s differs between the synced and the plain write", name)
		}
	}
}

// treeFiles maps every file under dir, by its path in dir, to its bytes.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSyncerReportsFailures: an fsync that fails (here, of a path that is
// gone) is what wait returns, after every other one finished; a nil
// syncer syncs nothing and fails nothing.
func TestSyncerReportsFailures(t *testing.T) {
	dir := t.TempDir()
	s := newSyncer()
	for i := range 3 * syncers {
		p := filepath.Join(dir, string(rune('a'+i%26))+".f")
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		s.add(p)
	}
	if err := s.wait(); err != nil {
		t.Fatalf("syncing files that exist: %v", err)
	}
	s = newSyncer()
	s.add(dir)
	s.add(filepath.Join(dir, "missing"))
	if err := s.wait(); !os.IsNotExist(unwrapOne(err)) {
		t.Errorf("syncing a missing file: %v, want not-exist", err)
	}
	var none *syncer
	none.add(filepath.Join(dir, "missing"))
	if err := none.wait(); err != nil {
		t.Errorf("a nil syncer failed: %v", err)
	}
}

// unwrapOne is the first error of a joined one.
func unwrapOne(err error) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok && len(j.Unwrap()) > 0 {
		return j.Unwrap()[0]
	}
	return err
}
