package dataset

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tpptrace/tpptrace/model"
)

// smallEventsFile returns the bytes of a valid events file of a few rows.
func smallEventsFile(f testing.TB) []byte {
	f.Helper()
	tr := &model.Trace{}
	tr.AddRank(model.Rank{Rank: 0, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
	for i, name := range []string{"gemm", "ncclDevKernel_AllReduce", "gemm"} {
		tr.AddEvent(model.NewEvent(0, model.Kind(i+1), tr.Names.Intern(name), int64(i*10), 5))
	}
	dir := filepath.Join(f.TempDir(), "ds")
	if err := Write(dir, tr, Manifest{Created: time.Unix(0, 0)}); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(EventsPath(dir, 0))
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// FuzzReadEvents decodes arbitrary bytes as an events file: it must return
// rows or an error, never panic or hang.
func FuzzReadEvents(f *testing.F) {
	good := smallEventsFile(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(append(bytes.Clone(good[:8]), good[len(good)-64:]...))
	flipped := bytes.Clone(good)
	flipped[len(flipped)/3] ^= 0xff
	f.Add(flipped)
	f.Add(hugeFooter(good))
	f.Fuzz(func(t *testing.T, data []byte) {
		pf, err := openParquetReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for _, withColls := range []bool{false, true} {
			col, err := decodeColumns(pf, -1, 0, withColls)
			if err != nil {
				continue
			}
			if int64(col.ev.Len()) != pf.NumRows() {
				t.Fatalf("decoded %d rows without error, file has %d", col.ev.Len(), pf.NumRows())
			}
			if ref, err := decodeEvents(pf, -1, 0, withColls); err == nil {
				if msg := sameChunks(ref, col); msg != "" {
					t.Fatalf("columnar and row decoders disagree: %s", msg)
				}
			}
		}
	})
}

// hugeFooter returns b with a footer length claiming nearly 4 GiB.
func hugeFooter(b []byte) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint32(b[len(b)-8:], 0xfffffff0)
	return b
}

func TestHugeFooterLength(t *testing.T) {
	dir, _ := writeFixture(t, 1)
	path := EventsPath(dir, 1)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, hugeFooter(b), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = Read(dir)
	if err == nil || !strings.Contains(err.Error(), "does not fit") || !strings.Contains(err.Error(), "rank=00001") {
		t.Fatalf("want a footer length error naming the file, got %v", err)
	}
}

// FuzzManifest reads arbitrary bytes as a dataset's manifest.json and, when
// it is accepted, the whole dataset (whose tables are those of a small valid
// one): an error naming the file, never a panic.
func FuzzManifest(f *testing.F) {
	tr := &model.Trace{}
	tr.AddRank(model.Rank{Rank: 0, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
	tr.AddEvent(model.NewEvent(0, model.KindCompute, tr.Names.Intern("gemm"), 0, 5))
	dir := filepath.Join(f.TempDir(), "ds")
	if err := Write(dir, tr, Manifest{Created: time.Unix(0, 0)}); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"schema_version": 1, "ranks": [0, 5, -1], "rank_events": [1, 2, 3]}`))
	f.Add([]byte(`{"schema_version": 1, "ranks": [2147483647], "rank_events": [-9]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, ManifestFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadManifest(dir); err != nil {
			if !strings.Contains(err.Error(), "manifest") {
				t.Fatalf("error %q does not name the manifest", err)
			}
			return
		}
		Read(dir)
	})
}
