package kineto

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
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
		var buf []byte
		whole, src, err := gzipSource(br, size, &buf)
		if err != nil {
			t.Fatal(err)
		}
		got := whole
		if src != nil {
			got, err = io.ReadAll(src)
		}
		if err != nil || !bytes.Equal(got, data) || (whole == nil) == (src == nil) {
			t.Errorf("size %d: read %d bytes (%v), want the %d of the file", size, len(got), err, len(data))
		}
		if mem := whole != nil; mem != (size == int64(len(data)) || size == int64(len(data))+7) {
			t.Errorf("size %d: in memory %v", size, mem)
		}
	}
}

// TestScratchAcrossFiles: files read one after another through one
// scratch (its read buffer, gzip bytes and inflater reused: a larger file
// after a smaller, a plain one between, a damaged one before a good one)
// give the text, or the error, that each gives through a fresh scratch.
func TestScratchAcrossFiles(t *testing.T) {
	gzipOf := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	small := []byte(`{"traceEvents": []}`)
	big := bytes.Repeat([]byte(`{"ph": "X", "name": "k", "ts": 1, "dur": 2},`), 5000)
	files := [][]byte{gzipOf(small), gzipOf(big), small, gzipOf(big)[:300], gzipOf(small), gzipOf(big)}
	shared := new(scratch)
	for i, data := range files {
		path := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, gotErr := readStream(t, path, shared)
		want, wantErr := readStream(t, path, new(scratch))
		if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("file %d: through the shared scratch %d bytes (%v), fresh %d bytes (%v)", i, len(got), gotErr, len(want), wantErr)
		}
		if i == 1 && !bytes.Equal(got, big) {
			t.Errorf("file 1: %d bytes, want the %d written", len(got), len(big))
		}
	}
}

// readStream reads path's text through openStream and sc.
func readStream(t *testing.T, path string, sc *scratch) ([]byte, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	r, _, err := openStream(&countReader{r: f, prog: &progress{}}, st.Size(), sc)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// TestStreamedGzip: a gzip file too large to read whole streams through
// gunzip's reader and gives the text, or fails, as klauspost's reader
// does, also when the file is handed over to it (read again from its
// start: a header CRC, damage); progress and the bomb guard count each of
// the file's bytes once.
func TestStreamedGzip(t *testing.T) {
	text := bytes.Repeat([]byte(`{"ph": "X", "name": "k", "ts": 1, "dur": 2},`), 50_000)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(text)
	zw.Close()
	good := b.Bytes()
	hcrc := append([]byte{}, good[:10]...)
	hcrc[3] |= 1 << 1
	crc := crc32.ChecksumIEEE(hcrc)
	hcrc = append(append(hcrc, byte(crc), byte(crc>>8)), good[10:]...)
	flipped := append([]byte{}, good...)
	flipped[len(flipped)/2] ^= 0x55
	for name, data := range map[string][]byte{"good": good, "header CRC": hcrc, "flipped": flipped, "truncated": good[:len(good)-100]} {
		path := filepath.Join(t.TempDir(), "f.json.gz")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, _ := os.Open(path)
		prog := &progress{fn: func(int64, int64) {}}
		cr := &countReader{r: f, prog: prog}
		got, err := readText(cr, maxGzipInMemory+1)
		f.Close()
		zr, _ := kgzip.NewReader(bytes.NewReader(data))
		want, wantErr := io.ReadAll(zr)
		if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) {
			t.Errorf("%s: %d bytes (%v), klauspost's %d bytes (%v)", name, len(got), err, len(want), wantErr)
		}
		if prog.done != int64(len(data)) || cr.n != int64(len(data)) {
			t.Errorf("%s: progress %d, counted %d, want the file's %d bytes", name, prog.done, cr.n, len(data))
		}
	}
}

// readText reads the text of what cr reads through openStream, as a file
// of size bytes.
func readText(cr *countReader, size int64) ([]byte, error) {
	r, _, err := openStream(cr, size, new(scratch))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}
