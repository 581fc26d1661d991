package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/model"
)

// fastAndSlow decodes an events file held in data both ways: the fast
// path's chunk and whether it accepted, and parquet-go's (decodeColumns)
// with its error. nil chunks when the footer does not open.
func fastAndSlow(t testing.TB, data []byte) (fast *chunk, ok bool, slow *chunk, err error) {
	pf, err := openParquetReader(bytes.NewReader(data), int64(len(data)))
	if err != nil || pf.NumRows() > maxRowsPerByte*int64(len(data)) {
		return nil, false, nil, err
	}
	fast = &chunk{}
	fast.ev.Grow(int(pf.NumRows()))
	ok = decodeFast(data, pf, -1, fast, &fastScratch{})
	slow, err = decodeColumns(pf, -1, 0, false)
	return fast, ok, slow, err
}

// sameDecode reports how a fast chunk differs from the slow one: the rows,
// and the names in the order they were interned.
func sameDecode(fast, slow *chunk) string {
	if msg := sameChunks(slow, fast); msg != "" {
		return msg
	}
	if !slices.Equal(fast.names.All(), slow.names.All()) {
		return "names interned in another order"
	}
	if !slices.Equal(fast.ev.Name, slow.ev.Name) {
		return "name ids differ"
	}
	return ""
}

// TestFastPathTakesWhatThePackageWrites: every events file of a cache entry
// (Manifest.Fast: snappy) and of a dataset (parquet-go's own writer, zstd)
// is decoded by the fast path, to the rows and names parquet-go's pages
// give.
func TestFastPathTakesWhatThePackageWrites(t *testing.T) {
	tr := buildTrace(t, 3)
	for _, fast := range []bool{true, false} {
		dir := filepath.Join(t.TempDir(), "ds")
		if err := Write(dir, tr, Manifest{Tool: "test", Fast: fast, Created: time.Unix(0, 0)}); err != nil {
			t.Fatal(err)
		}
		m, err := ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range m.Ranks {
			data, err := os.ReadFile(EventsPath(dir, r))
			if err != nil {
				t.Fatal(err)
			}
			f, ok, s, err := fastAndSlow(t, data)
			switch {
			case err != nil:
				t.Fatal(err)
			case !ok:
				t.Fatalf("rank %d (fast %v): the fast path gave up", r, fast)
			case ok && sameDecode(f, s) != "":
				t.Fatalf("rank %d (fast %v): %s", r, fast, sameDecode(f, s))
			case f.ev.Len() == 0 && ok:
				t.Fatalf("rank %d: no rows", r)
			}
		}
	}
}

// TestFastPathManyRowGroups: a rank of more than a row group's rows, each
// row group with its own dictionaries, decodes as parquet-go reads it.
func TestFastPathManyRowGroups(t *testing.T) {
	tr := buildTrace(t, 1)
	addBigRank(tr, 9, rowGroupRows+300)
	for _, fast := range []bool{true, false} {
		data := bigRankFile(t, tr, fast)
		pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil || len(pf.RowGroups()) < 2 {
			t.Fatalf("fast %v: want several row groups: %v", fast, err)
		}
		f, ok, s, err := fastAndSlow(t, data)
		if err != nil || !ok || sameDecode(f, s) != "" || f.ev.Len() != rowGroupRows+300 {
			t.Fatalf("fast %v: fast path ok %v, slow error %v: %s", fast, ok, err, sameDecode(f, s))
		}
	}
}

// bigRankFile is rank 9's events file of tr written as a cache entry
// (fast) or a dataset.
func bigRankFile(t testing.TB, tr *model.Trace, fast bool) []byte {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	if err := Write(dir, tr, Manifest{Tool: "test", Fast: fast, Created: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(EventsPath(dir, 9))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFastPathGivesUpOnDamage: a flipped byte in the last page of any
// column read (its checksum fails), or a truncated file: the fast path does
// not accept the file, so parquet-go's reader decides.
func TestFastPathGivesUpOnDamage(t *testing.T) {
	good := fastEventsFile(t)
	pf, err := openParquetReader(bytes.NewReader(good), int64(len(good)))
	if err != nil {
		t.Fatal(err)
	}
	for _, rg := range pf.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			if !slices.Contains(eventColumns, cc.MetaData.PathInSchema[0]) {
				continue // a joined collective column, which a whole read skips
			}
			bad := bytes.Clone(good)
			bad[cc.MetaData.DataPageOffset+int64(cc.MetaData.TotalCompressedSize)-1] ^= 0x55
			if _, ok, _, _ := fastAndSlow(t, bad); ok && !bytes.Equal(bad, good) {
				t.Fatalf("column %v: the fast path took a page whose checksum fails", cc.MetaData.PathInSchema)
			}
		}
	}
	if _, ok, _, _ := fastAndSlow(t, good[:len(good)-1]); ok {
		t.Fatal("a truncated file was taken")
	}
}

// fastEventsFile is a cache entry's events file of a few ranks' events
// (rank 1).
func fastEventsFile(t testing.TB) []byte { return eventsFile(t, true) }

// eventsFile is rank 1's events file of a few ranks' events, of a cache
// entry (fast: snappy) or a dataset (zstd).
func eventsFile(t testing.TB, fast bool) []byte {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	if err := Write(dir, buildTrace(t, 2), Manifest{Tool: "test", Fast: fast, Created: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(EventsPath(dir, 1))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzFastEqualsSlow: whatever bytes the fast path accepts, parquet-go's
// reader decodes without error to the same rows and names.
func FuzzFastEqualsSlow(f *testing.F) {
	f.Add(smallEventsFile(f))
	for _, good := range [][]byte{fastEventsFile(f), eventsFile(f, false)} {
		f.Add(good)
		for _, at := range []int{40, len(good) / 4, len(good) / 2, len(good) - 200} {
			bad := bytes.Clone(good)
			bad[at] ^= 0x01
			f.Add(bad)
		}
		f.Add(good[:len(good)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok, slow, err := fastAndSlow(t, data)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("the fast path took a file parquet-go refuses: %v", err)
		}
		if msg := sameDecode(fast, slow); msg != "" {
			t.Fatalf("fast and slow paths disagree: %s", msg)
		}
	})
}
