package gunzip

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

// TestRealTracesDecodeHere: every gzip file of the real public traces in
// ../shared/traces (written by the profilers' own writers) decodes here,
// whole and as a stream, without handing over, to the bytes klauspost's
// reader gives.
func TestRealTracesDecodeHere(t *testing.T) {
	dir := shared.Dir(t, "traces")
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".gz") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Skip("no gzip files in ../shared/traces")
	}
	var z Reader
	for _, p := range paths {
		gz, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := theirs(gz)
		if err := z.Reset(gz); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got := outcomeOf(readAll(&z, 1<<16))
		whole := z.handed
		st, _ := streamed(&z, gz, sources["whole"], 1<<16)
		if got.err != want.err || !bytes.Equal(got.out, want.out) || st.err != want.err || !bytes.Equal(st.out, want.out) {
			t.Errorf("%s: whole %d bytes %q, streamed %d bytes %q; klauspost's %d bytes %q", p, len(got.out), got.err, len(st.out), st.err, len(want.out), want.err)
		}
		if whole || z.handed {
			t.Errorf("%s: handed over (whole %v, streamed %v)", p, whole, z.handed)
		}
	}
	t.Logf("%d files", len(paths))
}
