package kineto

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
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

// TestGzipSource checks that the compressed stream is the file's bytes
// whole: read into memory (size exact, too large, too small: a file that
// grew), or streamed when the file is larger than maxGzipInMemory.
func TestGzipSource(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 1000)
	for _, size := range []int64{int64(len(data)), int64(len(data)) + 7, 100, maxGzipInMemory + 1} {
		br := bufio.NewReaderSize(bytes.NewReader(data), 64<<10)
		src, err := gzipSource(br, size)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(src)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("size %d: read %d bytes (%v), want the %d of the file", size, len(got), err, len(data))
		}
		if _, mem := src.(*bytes.Reader); mem != (size == int64(len(data)) || size == int64(len(data))+7) {
			t.Errorf("size %d: in memory %v", size, mem)
		}
	}
}
