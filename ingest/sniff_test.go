package ingest

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSniffAllKeepsTheFilesOrder: sniffed on every core, the files still
// come out grouped in the order given, with the unreadable and unknown ones
// as skips in that order and the generator's companion passed over.
func TestSniffAllKeepsTheFilesOrder(t *testing.T) {
	dir := t.TempDir()
	var files, kineto, skips []string
	for i := range 40 {
		p := filepath.Join(dir, fmt.Sprintf("f%02d", i))
		switch i % 4 {
		case 0: // Kineto, gzipped
			p += ".json.gz"
			writeGzip(t, p, `{"traceEvents": []}`)
			kineto = append(kineto, p)
		case 1: // Kineto, plain
			p += ".json"
			writeFile(t, p, `{"schemaVersion": 1, "traceEvents": []}`)
			kineto = append(kineto, p)
		case 2: // nothing any format reads
			p += ".txt"
			writeFile(t, p, "notes")
			skips = append(skips, p)
		case 3: // missing: cannot be read
			skips = append(skips, p)
		}
		files = append(files, p)
	}
	companion := filepath.Join(dir, "job.json")
	writeFile(t, companion, `{"tp": 1, "pp": 1, "dp": 1, "microbatches": 4}`)
	files = append(files, companion)
	groups, skipped := sniffAll(files, Formats())
	if !slices.Equal(groups["kineto"], kineto) || len(groups) != 1 {
		t.Errorf("groups %v, want kineto only, in order: %v", groups, kineto)
	}
	var got []string
	for _, s := range skipped.Skipped {
		got = append(got, s.Source)
	}
	if !slices.Equal(got, skips) {
		t.Errorf("skips %v, want %v", got, skips)
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeGzip(t *testing.T, p, s string) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
