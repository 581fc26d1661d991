package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// loadWarning loads paths and returns the trace and the warnings.
func loadWarning(t *testing.T, paths ...string) (*model.Trace, string) {
	t.Helper()
	var mu sync.Mutex
	var warns []string
	opts := source.Options{Warn: func(m string) { mu.Lock(); warns = append(warns, m); mu.Unlock() }}
	tr, err := Load(context.Background(), paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	return tr, strings.Join(warns, "\n")
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

func TestSymlinkedDirectoryAndFilesAreFollowed(t *testing.T) {
	base := t.TempDir()
	run, other := filepath.Join(base, "run_001"), filepath.Join(base, "elsewhere")
	os.Mkdir(run, 0o755)
	os.Mkdir(other, 0o755)
	os.WriteFile(filepath.Join(run, "rank0.json"), []byte(rankDoc(0)), 0o644)
	os.WriteFile(filepath.Join(other, "rank1.json"), []byte(rankDoc(1)), 0o644)
	symlink(t, filepath.Join(other, "rank1.json"), filepath.Join(run, "rank1.json"))
	symlink(t, "rank0.json", filepath.Join(run, "a_link_to_rank0.json")) // the same file twice
	symlink(t, run, filepath.Join(run, "loop"))                          // a loop
	latest := filepath.Join(base, "latest")
	symlink(t, "run_001", latest)

	tr, warns := loadWarning(t, latest)
	if len(tr.Ranks) != 2 {
		t.Fatalf("%d ranks through the links, want 2 (skipped %+v)", len(tr.Ranks), tr.Skipped)
	}
	for _, want := range []string{filepath.Join(latest, "loop") + ": a symbolic link loop", filepath.Join(latest, "a_link_to_rank0.json") + ": a symbolic link to "} {
		if !strings.Contains(warns, want) {
			t.Errorf("no warning %q in:\n%s", want, warns)
		}
	}
}

func TestUnrecognisedTraceFilesAreNamedOnTheWarningChannel(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "rank0.json"), []byte(rankDoc(0)), 0o644)
	files := map[string][]byte{
		"rank1.json": {},
		"rank2.json": {0x13, 0x99, 0x42, 0x07, 0x00, 0xfe},
		"rank3.json": []byte(`{"traceEv`),
		"rank4.json": {0xff, 0xfe, '{', 0},
		"notes.txt":  []byte("hello"),
	}
	for name, data := range files {
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	_, warns := loadWarning(t, dir)
	for _, want := range []string{"rank1.json: an empty file", "rank2.json: no input format", "rank3.json: no input format", "rank4.json: UTF-16"} {
		if !strings.Contains(warns, want) {
			t.Errorf("no warning %q in:\n%s", want, warns)
		}
	}
	if strings.Contains(warns, "notes.txt") {
		t.Errorf("a note in the directory was warned about:\n%s", warns)
	}
}

func TestTraceLikeNames(t *testing.T) {
	for name, want := range map[string]bool{"rank3.json": true, "worker0.pt.trace.json": true, "x.json.gz": true, "r.sqlite": true,
		"job.json": false, "truth.json": false, "notes.txt": false, "report.nsys-rep": true, "_dump_3.pkl": true} {
		if got := traceLike(filepath.Join("d", name)); got != want {
			t.Errorf("traceLike(%s) = %v, want %v", name, got, want)
		}
	}
}
