package kineto

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// TestTextSize checks the presizing hint: a plain file's size, a gzip
// file's uncompressed length from its trailer, and 0 for a stub too short
// to hold a trailer.
func TestTextSize(t *testing.T) {
	text := bytes.Repeat([]byte(`{"ph":"X","name":"k"},`), 5000)
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(text)
	w.Close()
	for _, c := range []struct {
		name string
		data []byte
		gz   bool
		want int64
	}{
		{"plain.json", text, false, int64(len(text))},
		{"t.json.gz", gz.Bytes(), true, int64(len(text))},
		{"stub.json.gz", gz.Bytes()[:10], true, 0},
	} {
		path := filepath.Join(t.TempDir(), c.name)
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := textSize(f, int64(len(c.data)), c.gz); got != c.want {
			t.Errorf("%s: textSize = %d, want %d", c.name, got, c.want)
		}
		f.Close()
	}
}
