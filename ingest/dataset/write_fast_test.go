package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/tpptrace/tpptrace/model"
)

// The fast events files hold what parquet-go's writer puts in an ordinary
// one: the same schema, key-value metadata, rows in the same order with the
// same values, the same row groups and, per column chunk, the same type and
// encodings; only the codec differs (snappy). The fixture's events are out
// of rank order (so rows are gathered through a permutation), and one rank
// has more than a row group of events.
func TestFastEventsMatchParquetGo(t *testing.T) {
	tr := buildTrace(t, 3)
	addBigRank(tr, 9, rowGroupRows+300)
	slow, fast := filepath.Join(t.TempDir(), "slow"), filepath.Join(t.TempDir(), "fast")
	if err := Write(slow, tr, Manifest{Tool: "t 1"}); err != nil {
		t.Fatal(err)
	}
	if err := Write(fast, tr, Manifest{Tool: "t 1", Fast: true}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []int32{0, 1, 2, 3, 9} {
		want, wantRows := fileFacts(t, EventsPath(slow, r))
		got, gotRows := fileFacts(t, EventsPath(fast, r))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("rank %d: fast file\n%+v\nwant\n%+v", r, got, want)
		}
		if !reflect.DeepEqual(gotRows, wantRows) {
			t.Errorf("rank %d: fast file's %d rows differ from parquet-go's %d", r, len(gotRows), len(wantRows))
		}
	}
}

// addBigRank adds rank r with n events, in reverse time order, a few of them
// with a collective.
func addBigRank(tr *model.Trace, r int32, n int) {
	tr.AddRank(model.Rank{Rank: r, Coord: model.UnknownCoord, Source: -1})
	s := tr.AddStream(model.Stream{Rank: r, GPU: true, ID: 7})
	dt := tr.Names.Intern("bf16")
	for i := n - 1; i >= 0; i-- {
		e := model.NewEvent(r, model.Kind(i%3), tr.Names.Intern([]string{"gemm", "relu", "nccl"}[i%3]), int64(i)*1000, int64(i%977))
		e.Stream, e.Corr = s, int64(i)
		if i%100 == 0 {
			e.Coll = tr.Colls.Append(model.Collective{Op: model.OpAllGather, Bytes: int64(i), DType: dt, Comm: -1, Seq: int64(i), Peer: -1, GroupSize: 8})
		}
		tr.AddEvent(e)
	}
}

// chunkFact is what a column chunk must share with parquet-go's.
type chunkFact struct {
	Type      format.Type
	Encodings []format.Encoding
	Path      []string
	Values    int64
	HasDict   bool
}

type fileFact struct {
	Schema []format.SchemaElement
	KV     []format.KeyValue
	By     string
	Rows   int64
	Groups [][]chunkFact
	Sorted []format.SortingColumn
}

func fileFacts(t *testing.T, path string) (fileFact, []eventRow) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	md := pf.Metadata()
	ff := fileFact{Schema: md.Schema, KV: md.KeyValueMetadata, By: md.CreatedBy, Rows: md.NumRows}
	for _, rg := range md.RowGroups {
		var cs []chunkFact
		for _, c := range rg.Columns {
			m := c.MetaData
			cs = append(cs, chunkFact{m.Type, m.Encoding, m.PathInSchema, m.NumValues, m.DictionaryPageOffset > 0})
		}
		ff.Groups, ff.Sorted = append(ff.Groups, cs), rg.SortingColumns
	}
	rows := make([]eventRow, md.NumRows)
	r := parquet.NewGenericReader[eventRow](f)
	defer r.Close()
	if n, err := r.Read(rows); n != len(rows) {
		t.Fatalf("%s: read %d of %d rows: %v", path, n, len(rows), err)
	}
	return ff, rows
}

// The big rank of TestFastEventsMatchParquetGo spans two row groups.
func TestAddBigRankSpansRowGroups(t *testing.T) {
	tr := &model.Trace{}
	addBigRank(tr, 9, rowGroupRows+300)
	dir := filepath.Join(t.TempDir(), "fast")
	if err := Write(dir, tr, Manifest{Fast: true}); err != nil {
		t.Fatal(err)
	}
	if ff, _ := fileFacts(t, EventsPath(dir, 9)); len(ff.Groups) != 2 || ff.Rows != rowGroupRows+300 {
		t.Fatalf("%d row groups, %d rows; want 2 and %d", len(ff.Groups), ff.Rows, rowGroupRows+300)
	}
}
