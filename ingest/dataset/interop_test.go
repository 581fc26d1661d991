package dataset

import (
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/tpptrace/tpptrace/model"
)

// allDatasetFiles lists every Parquet file in dir.
func allDatasetFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := filepath.Glob(filepath.Join(dir, eventsDir, "*.parquet"))
	if len(files) != len(tableFiles) || len(ev) == 0 {
		t.Fatalf("want %d tables and event files, got %v %v", len(tableFiles), files, ev)
	}
	return append(files, ev...)
}

func openRaw(t *testing.T, path string) *parquet.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	fi, _ := f.Stat()
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	return pf
}

// TestStandardTypesOnly walks the footer schema of every file, as another
// engine sees it, and accepts only BOOLEAN, INT32, INT64 and BYTE_ARRAY
// leaves annotated with nothing, STRING or INT, and LIST groups.
func TestStandardTypesOnly(t *testing.T) {
	dir, _ := writeFixture(t, 1)
	for _, path := range allDatasetFiles(t, dir) {
		pf := openRaw(t, path)
		for _, el := range pf.Metadata().Schema[1:] {
			if msg := checkElement(el); msg != "" {
				t.Errorf("%s: column %q: %s", filepath.Base(path), el.Name, msg)
			}
		}
		if v, _ := pf.Lookup(metaSchemaVersion); v != strconv.Itoa(SchemaVersion) {
			t.Errorf("%s: key-value %s = %q", path, metaSchemaVersion, v)
		}
		if v, _ := pf.Lookup(metaTool); v != "tpptrace test" {
			t.Errorf("%s: key-value %s = %q", path, metaTool, v)
		}
	}
}

func checkElement(el format.SchemaElement) string {
	lt := el.LogicalType.Value
	if _, leaf := el.Type.Get(); !leaf {
		if _, ok := lt.(*format.ListType); ok || lt == nil {
			return ""
		}
		return "group with logical type " + lt.String()
	}
	switch el.Type.V {
	case format.Boolean, format.Int32, format.Int64, format.Double, format.ByteArray:
	default:
		return "physical type " + el.Type.V.String()
	}
	switch lt := lt.(type) {
	case nil, *format.StringType:
		return ""
	case *format.IntType:
		if slices.Contains([]int8{8, 16, 32, 64}, lt.BitWidth) {
			return ""
		}
	}
	return "logical type " + el.LogicalType.String()
}

// rawEvents is what the page-level reader extracts from the event files.
type rawEvents struct {
	rows   int64
	durSum int64
	names  map[string]int
	kinds  map[string]int
}

// readEventPages reads events files with parquet-go's low-level column
// chunk page API only (no GenericReader, no row reconstruction).
func readEventPages(t *testing.T, paths []string) rawEvents {
	t.Helper()
	out := rawEvents{names: map[string]int{}, kinds: map[string]int{}}
	for _, path := range paths {
		pf := openRaw(t, path)
		out.rows += pf.NumRows()
		dur, _ := pf.Schema().Lookup("dur_ns")
		name, _ := pf.Schema().Lookup("name")
		kind, _ := pf.Schema().Lookup("kind")
		for _, rg := range pf.RowGroups() {
			cc := rg.ColumnChunks()
			eachRawPage(t, cc[dur.ColumnIndex], func(p parquet.Page) { out.durSum += sumInt64(t, p) })
			eachRawPage(t, cc[name.ColumnIndex], func(p parquet.Page) { countStrings(t, p, out.names) })
			eachRawPage(t, cc[kind.ColumnIndex], func(p parquet.Page) { countStrings(t, p, out.kinds) })
		}
	}
	return out
}

func eachRawPage(t *testing.T, c parquet.ColumnChunk, fn func(parquet.Page)) {
	t.Helper()
	pages := c.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		fn(p)
		parquet.Release(p)
	}
}

func sumInt64(t *testing.T, p parquet.Page) int64 {
	buf := make([]int64, p.NumValues())
	n, err := p.Values().(parquet.Int64Reader).ReadInt64s(buf)
	if err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	var s int64
	for _, v := range buf[:n] {
		s += v
	}
	return s
}

func countStrings(t *testing.T, p parquet.Page, into map[string]int) {
	buf := make([]parquet.Value, p.NumValues())
	n, err := p.Values().ReadValues(buf)
	if err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	for _, v := range buf[:n] {
		into[string(v.ByteArray())]++
	}
}

func TestIndependentPageReader(t *testing.T) {
	dir, tr := writeFixture(t, 4)
	paths, _ := filepath.Glob(filepath.Join(dir, eventsDir, "*.parquet"))
	got := readEventPages(t, paths)
	want := rawEvents{rows: int64(tr.Events.Len()), names: map[string]int{}, kinds: map[string]int{}}
	for i := range tr.Events.Len() {
		want.durSum += tr.Events.Dur[i]
		want.names[tr.Name(i)]++
		want.kinds[tr.Events.Kind[i].String()]++
	}
	if got.rows != want.rows || got.durSum != want.durSum {
		t.Fatalf("rows %d dur %d, want %d %d", got.rows, got.durSum, want.rows, want.durSum)
	}
	if !maps.Equal(got.names, want.names) || !maps.Equal(got.kinds, want.kinds) {
		t.Fatalf("name or kind multisets differ:\n got %v %v\nwant %v %v", got.names, got.kinds, want.names, want.kinds)
	}
	if got.kinds[model.KindComm.String()] == 0 {
		t.Fatal("fixture has no comm events")
	}
}

// TestEncodingAndCompression checks that every column chunk is zstd and that
// the string columns of the event files are dictionary encoded.
func TestEncodingAndCompression(t *testing.T) {
	dir, _ := writeFixture(t, 2)
	pf := openRaw(t, EventsPath(dir, 1))
	dict := map[string]bool{}
	for _, rg := range pf.Metadata().RowGroups {
		for _, c := range rg.Columns {
			md := c.MetaData
			if md.Codec != format.Zstd {
				t.Errorf("column %v: codec %v", md.PathInSchema, md.Codec)
			}
			dict[md.PathInSchema[0]] = slices.Contains(md.Encoding, format.RLEDictionary)
		}
	}
	for _, col := range []string{"name", "kind"} {
		if !dict[col] {
			t.Errorf("column %s is not dictionary encoded", col)
		}
	}
	if dict["dur_ns"] {
		t.Errorf("dur_ns should not be dictionary encoded")
	}
}
