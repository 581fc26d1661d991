package dataset

import (
	"fmt"

	"github.com/parquet-go/parquet-go"

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
