package dataset

import (
	"fmt"
	"slices"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/pqsafe"
	"github.com/tpptrace/tpptrace/model"
)

// collColumns holds the collective columns joined into an events file.
type collColumns struct {
	op, dtype             []int32 // ids in ops and in the chunk's names
	ops                   model.Strings
	bytes, seq            []int64
	comm, peer, groupSize []int32
}

var collColumnNames = []string{"comm", "peer", "group_size", "bytes", "seq", "op", "dtype"}

// readRowGroup appends the collective columns of one row group; a nil
// receiver reads nothing.
func (cc *collColumns) readRowGroup(s *parquet.Schema, rg parquet.RowGroup, names *model.Strings) error {
	if cc == nil {
		return nil
	}
	chunks := rg.ColumnChunks()
	i32 := []*[]int32{&cc.comm, &cc.peer, &cc.groupSize}
	i64 := []*[]int64{&cc.bytes, &cc.seq}
	for i, name := range collColumnNames {
		col, err := lookupRequired(s, name, len(chunks))
		if err != nil {
			return err
		}
		switch {
		case i < len(i32):
			err = eachPage(chunks[col], func(p parquet.Page) error { return appendInt32s(p, i32[i]) })
		case i < len(i32)+len(i64):
			err = eachPage(chunks[col], func(p parquet.Page) error { return appendInt64s(p, i64[i-len(i32)]) })
		case name == "op":
			err = appendStrings(chunks[col], &cc.op, &cc.ops)
		default:
			err = appendStrings(chunks[col], &cc.dtype, names)
		}
		if err != nil {
			return fmt.Errorf("column %s: %w", name, err)
		}
	}
	return nil
}

// collect fills c.colls with the collective of every row that has one.
func (cc *collColumns) collect(c *chunk) error {
	if cc == nil {
		return nil
	}
	n := c.ev.Len()
	for _, l := range []int{len(cc.op), len(cc.dtype), len(cc.bytes), len(cc.seq), len(cc.comm), len(cc.peer), len(cc.groupSize)} {
		if l != n {
			return fmt.Errorf("collective columns have %d values, events %d", l, n)
		}
	}
	c.colls = map[int32]eventColl{}
	for i, x := range c.ev.Coll {
		if x >= 0 {
			c.colls[x] = eventColl{cc.ops.Get(cc.op[i]), cc.bytes[i], c.names.Get(cc.dtype[i]), cc.comm[i], cc.seq[i], cc.peer[i], cc.groupSize[i]}
		}
	}
	return nil
}

// collTableColumns are the columns of collectives.parquet.
var collTableColumns = append([]string{"coll"}, collColumnNames...)

// readCollTable decodes collectives.parquet column by column into t.Colls,
// in the order of the coll column, which must be exactly 0..n-1. DTypes are
// interned in t.Names in that order, as the row reader interned them.
func readCollTable(pf *parquet.File, t *model.Trace) error {
	cc, local := &collColumns{}, model.Strings{}
	var idx []int32
	err := pqsafe.Guard(func() error { return cc.readTable(pf, &idx, &local) })
	if err == nil {
		err = cc.sameLength(len(idx))
	}
	if err != nil {
		return err
	}
	order, err := indexOrder(idx)
	if err != nil {
		return err
	}
	cc.appendTo(&t.Colls, order, &local, &t.Names)
	return nil
}

// readTable appends every row group's columns: the coll column to idx, the
// others to cc, dtypes interned in local.
func (cc *collColumns) readTable(pf *parquet.File, idx *[]int32, local *model.Strings) error {
	for _, rg := range pf.RowGroups() {
		col, err := lookupRequired(pf.Schema(), "coll", len(rg.ColumnChunks()))
		if err == nil {
			err = eachPage(rg.ColumnChunks()[col], func(p parquet.Page) error { return appendInt32s(p, idx) })
		}
		if err == nil {
			err = cc.readRowGroup(pf.Schema(), rg, local)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// sameLength checks that every column holds n values.
func (cc *collColumns) sameLength(n int) error {
	for _, l := range []int{len(cc.op), len(cc.dtype), len(cc.bytes), len(cc.seq), len(cc.comm), len(cc.peer), len(cc.groupSize)} {
		if l != n {
			return fmt.Errorf("collective columns have %d values, coll %d", l, n)
		}
	}
	return nil
}

// indexOrder returns the rows in the order of their index column, which
// must hold each of 0..n-1 once; nil when the rows are in that order.
func indexOrder(idx []int32) ([]int32, error) {
	inOrder := true
	for i, x := range idx {
		inOrder = inOrder && x == int32(i)
	}
	if inOrder {
		return nil, nil
	}
	order := make([]int32, len(idx))
	seen := make([]bool, len(idx))
	for row, x := range idx {
		if x < 0 || int(x) >= len(idx) || seen[x] {
			return nil, fmt.Errorf("row %d has index %d, want each of 0..%d once", row, x, len(idx)-1)
		}
		seen[x], order[x] = true, int32(row)
	}
	return order, nil
}

// appendTo appends the rows, in order (nil: as read), to c, with dtypes
// moved from local ids to ids in names, interned on first use.
func (cc *collColumns) appendTo(c *model.Collectives, order []int32, local, names *model.Strings) {
	ops := make([]model.Op, cc.ops.Len())
	for i, s := range cc.ops.All() {
		ops[i] = model.ParseOp(s)
	}
	dtypes := untranslated(local.Len())
	n := len(cc.op)
	c.Op, c.Bytes, c.DType = slices.Grow(c.Op, n), slices.Grow(c.Bytes, n), slices.Grow(c.DType, n)
	c.Comm, c.Seq, c.Peer, c.GroupSize = slices.Grow(c.Comm, n), slices.Grow(c.Seq, n), slices.Grow(c.Peer, n), slices.Grow(c.GroupSize, n)
	for k := range n {
		i := k
		if order != nil {
			i = int(order[k])
		}
		d := cc.dtype[i]
		if dtypes[d] < 0 {
			dtypes[d] = names.Intern(local.Get(d))
		}
		c.Append(model.Collective{Op: ops[cc.op[i]], Bytes: cc.bytes[i], DType: dtypes[d], Comm: cc.comm[i],
			Seq: cc.seq[i], Peer: cc.peer[i], GroupSize: cc.groupSize[i]})
	}
}
