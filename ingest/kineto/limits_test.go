package kineto

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

const kernelHead = `{"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, "ts": 30, "dur": 10, "args": {"stream": 7}, "name": "`

// repeated yields n copies of byte c without holding them.
type repeated struct {
	c byte
	n int64
}

func (r *repeated) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), r.n))
	for i := range p[:k] {
		p[i] = r.c
	}
	r.n -= int64(k)
	return k, nil
}

// bigNameTrace streams a rank-0 trace whose first kernel has an n-byte name
// and whose second is ordinary.
func bigNameTrace(n int64) io.Reader {
	return io.MultiReader(strings.NewReader(`{"distributedInfo": {"rank": 0}, "traceEvents": [`+kernelHead),
		&repeated{'a', n}, strings.NewReader(`"}, `+kernelHead+`ok"}]}`))
}

// writeGzip writes r gzipped to a new file and returns its path.
func writeGzip(t *testing.T, name string, r io.Reader) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	if _, err := io.Copy(zw, r); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// readAllocating reads one file and returns the trace, the bytes the read
// allocated (an upper bound of its peak heap) and the error.
func readAllocating(path string) (*model.Trace, uint64, error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tr, err := Read(context.Background(), []string{path}, source.Options{Workers: 1})
	runtime.ReadMemStats(&after)
	return tr, after.TotalAlloc - before.TotalAlloc, err
}

func skipWith(tr *model.Trace, substr string) (model.Skip, bool) {
	for _, s := range tr.Skipped {
		if strings.Contains(s.Reason, substr) {
			return s, true
		}
	}
	return model.Skip{}, false
}

func TestOversizeElementIsSkippedWithBoundedMemory(t *testing.T) {
	tr := newFileReader("big.json", nil, DefaultStepRegex)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := newSplitter(bigNameTrace(100 << 20)).run(tr)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if tr.tr.Events.Len() != 1 {
		t.Fatalf("%d events kept, want the ordinary one", tr.tr.Events.Len())
	}
	s, ok := skipWith(tr.tr, "traceEvents element larger than 64 MiB")
	if !ok || s.Offset != int64(len(`{"distributedInfo": {"rank": 0}, "traceEvents": [`)) {
		t.Fatalf("no record at the element's offset: %+v", tr.tr.Skipped)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 200<<20 {
		t.Errorf("a 100 MiB element allocated %d MiB, want under 200", n>>20)
	}
}

func TestLongNameIsCutWithARecord(t *testing.T) {
	data, _ := io.ReadAll(bigNameTrace(1 << 20))
	p := writeTrace(t, t.TempDir(), "rank0.json", string(data))
	tr, err := Read(context.Background(), []string{p}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := skipWith(tr, "event name longer than 16384 bytes: cut"); !ok {
		t.Fatalf("no record of the cut: %+v", tr.Skipped)
	}
	for i := 0; i < tr.Events.Len(); i++ {
		if n := len(tr.Name(i)); n > maxString+len("…") {
			t.Fatalf("a %d-byte name was kept", n)
		}
	}
}

func TestDecompressionBombIsRefusedNamingTheFile(t *testing.T) {
	p := writeGzip(t, "rank0.json.gz", bigNameTrace(200<<20)) // about 200 KB on disk
	_, alloc, err := readAllocating(p)
	if err == nil || !strings.Contains(err.Error(), "decompression bomb") || !strings.Contains(err.Error(), p) {
		t.Fatalf("want a decompression-bomb error naming %s, got %v", p, err)
	}
	if alloc > 200<<20 {
		t.Errorf("reading allocated %d MiB, want under 200", alloc>>20)
	}
}

func TestCorruptGzipTrailerIsReported(t *testing.T) {
	doc := `{"distributedInfo": {"rank": 0}, "traceEvents": [` + kernelHead + `k"}]}`
	p := writeGzip(t, "rank0.json.gz", strings.NewReader(doc))
	data, _ := os.ReadFile(p)
	crc := binary.LittleEndian.Uint32(data[len(data)-8:])
	binary.LittleEndian.PutUint32(data[len(data)-8:], crc^1)
	os.WriteFile(p, data, 0o644)
	_, err := Read(context.Background(), []string{p}, source.Options{})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("want a checksum error naming %s, got %v", p, err)
	}
}

func TestEventsPerFileLimit(t *testing.T) {
	defer func(n int) { maxEvents = n }(maxEvents)
	maxEvents = 3
	var b bytes.Buffer
	b.WriteString(`{"distributedInfo": {"rank": 0}, "traceEvents": [`)
	for i := range 4 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(kernelHead + `k"}`)
	}
	b.WriteString("]}")
	p := writeTrace(t, t.TempDir(), "rank0.json", b.String())
	_, err := Read(context.Background(), []string{p}, source.Options{})
	if err == nil || !strings.Contains(err.Error(), "more than 3 events in one file") || !strings.Contains(err.Error(), p+": byte ") {
		t.Fatalf("want the limit named with the file and offset, got %v", err)
	}
}

func TestMemoryBudgetFailsTheLoadNamingTheFile(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"distributedInfo": {"rank": 0}, "traceEvents": [`)
	for i := range 5000 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(kernelHead + `k"}`)
	}
	b.WriteString("]}")
	dir := t.TempDir()
	p := writeTrace(t, dir, "rank0.json", b.String())
	q := writeTrace(t, dir, "rank1.json", strings.Replace(b.String(), `"rank": 0`, `"rank": 1`, 1))
	runtime.GC() // the live heap is known, and above one byte
	_, err := Read(context.Background(), []string{p, q}, source.Options{MaxMemory: 1})
	if !errors.Is(err, source.ErrMemoryBudget) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), ": byte ") {
		t.Fatalf("want a memory-budget error naming a file and a byte, got %v", err)
	}
	if _, err := Read(context.Background(), []string{p, q}, source.Options{MaxMemory: 1 << 40}); err != nil {
		t.Fatalf("within the budget: %v", err)
	}
}
