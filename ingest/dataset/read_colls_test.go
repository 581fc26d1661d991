package dataset

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// collsBothWays reads the collectives table at path column by column and
// by rows, each into a trace whose names already hold pre.
func collsBothWays(t *testing.T, path string, pre ...string) (col, rows *model.Trace, colErr, rowErr error) {
	t.Helper()
	col, rows = &model.Trace{}, &model.Trace{}
	for _, s := range pre {
		col.Names.Intern(s)
		rows.Names.Intern(s)
	}
	pf := openRaw(t, path)
	if !requiredLeaves(pf.Schema(), collTableColumns) {
		t.Fatalf("%s: the columnar reader refuses the package's own layout", path)
	}
	return col, rows, readCollTable(pf, col), readCollRows(path, rows)
}

// TestCollTableMatchesRowReader: the fixture's collectives.parquet gives the
// same t.Colls and the same name ids through both readers.
func TestCollTableMatchesRowReader(t *testing.T) {
	dir, tr := writeFixture(t, 3)
	col, rows, err1, err2 := collsBothWays(t, filepath.Join(dir, collsFile), "x")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if col.Colls.Len() != tr.Colls.Len() || col.Colls.Len() == 0 {
		t.Fatalf("%d collectives read, the trace has %d", col.Colls.Len(), tr.Colls.Len())
	}
	if !reflect.DeepEqual(col.Colls, rows.Colls) || !slices.Equal(col.Names.All(), rows.Names.All()) {
		t.Fatalf("columnar %+v %q\nrows %+v %q", col.Colls, col.Names.All(), rows.Colls, rows.Names.All())
	}
}

// TestCollTableOutOfOrder: rows stored out of index order come back in
// index order, their dtypes interned in that order, as the row reader does;
// a repeated index is an error for both.
func TestCollTableOutOfOrder(t *testing.T) {
	table := []collRow{
		{Coll: 2, Op: "all_gather", Bytes: 30, DType: "fp8", Comm: 1, Seq: 3, Peer: -1, GroupSize: 4},
		{Coll: 0, Op: "send", Bytes: 10, DType: "bf16", Comm: 0, Seq: 1, Peer: 5, GroupSize: 2},
		{Coll: 3, Op: "no_such_op", Bytes: -1, DType: "", Comm: -1, Seq: -1, Peer: -1, GroupSize: -1},
		{Coll: 1, Op: "all_reduce", Bytes: 20, DType: "fp32", Comm: 1, Seq: 2, Peer: -1, GroupSize: 4},
	}
	path := filepath.Join(t.TempDir(), collsFile)
	if err := writeFile(path, table, writeOptions(writer{}, collsFile)); err != nil {
		t.Fatal(err)
	}
	col, rows, err1, err2 := collsBothWays(t, path, "fp32")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !reflect.DeepEqual(col.Colls, rows.Colls) || !slices.Equal(col.Names.All(), rows.Names.All()) {
		t.Fatalf("columnar %+v %q\nrows %+v %q", col.Colls, col.Names.All(), rows.Colls, rows.Names.All())
	}
	if got := col.Names.All(); !slices.Equal(got, []string{"", "fp32", "bf16", "fp8"}) {
		t.Fatalf("names %q, want the dtypes in index order after the ones already there", got)
	}
	if col.Colls.At(0).Op != model.OpSend || col.Colls.At(3).Op != model.OpOther || col.Colls.At(2).Bytes != 30 {
		t.Fatalf("collectives not in index order: %+v", col.Colls)
	}
	table[3].Coll = 2
	if err := writeFile(path, table, writeOptions(writer{}, collsFile)); err != nil {
		t.Fatal(err)
	}
	_, _, err1, err2 = collsBothWays(t, path)
	if err1 == nil || err2 == nil || !strings.Contains(err1.Error(), "index 2") {
		t.Fatalf("a repeated index read without an error: %v, %v", err1, err2)
	}
}
