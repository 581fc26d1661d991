package nsys

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples/shared"
)

// TestReportBesideItsExportIsNotReadTwice: a directory holding a .nsys-rep
// and its .sqlite export (as `nsys export` leaves them) reads the export,
// and says why the report was left out, instead of failing on the report
// when nsys is not installed.
func TestReportBesideItsExportIsNotReadTwice(t *testing.T) {
	src := shared.Dir(t, "traces", "nsys")
	dir := t.TempDir()
	for _, name := range []string{"NVIDIA-Fuser_report1.nsys-rep", "NVIDIA-Fuser_report1.sqlite"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	t.Setenv("PATH", t.TempDir()) // no nsys
	var warned []string
	tr, err := Read(context.Background(), []string{filepath.Join(dir, "NVIDIA-Fuser_report1.nsys-rep"), filepath.Join(dir, "NVIDIA-Fuser_report1.sqlite")},
		source.Options{Warn: func(m string) { warned = append(warned, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Ranks) != 1 {
		t.Fatalf("%d ranks; want the export's one", len(tr.Ranks))
	}
	for _, w := range warned {
		if strings.Contains(w, ".nsys-rep") {
			t.Fatalf("no warning about the report whose export is read: %q", w)
		}
	}
	found := false
	for _, s := range tr.Skipped {
		found = found || strings.HasSuffix(s.Source, ".nsys-rep") && strings.Contains(s.Reason, "export")
	}
	if !found {
		t.Fatalf("the left-out report must be recorded as skipped: %+v", tr.Skipped)
	}
}
