package dataset

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/model"
)

// The reference decoder: parquet-go's GenericReader builds whole rows,
// which the package used before decodeColumns. Tests and the fuzz target
// cross-check the columnar decoder against it.

// decodeEvents decodes an opened events file whose rows must all belong to
// rank r (any rank when r < 0) and be sorted by start; capacity is a hint.
// Without withColls only the event columns are decoded.
func decodeEvents(pf *parquet.File, r int32, capacity int, withColls bool) (*chunk, error) {
	c := &chunk{}
	c.ev.Grow(capacity)
	kinds := kindTable()
	var bad, err error
	if !withColls {
		err = readAll(pf, func(rows []eventCore) {
			for i := range rows {
				bad = cmp.Or(bad, c.add(&rows[i], r, kinds))
			}
		})
		return c, errors.Join(err, bad)
	}
	c.colls = map[int32]eventColl{}
	err = readAll(pf, func(rows []eventRow) {
		for i := range rows {
			bad = cmp.Or(bad, c.add(&rows[i].eventCore, r, kinds))
			if e := &rows[i]; e.Coll >= 0 {
				c.colls[e.Coll] = e.eventColl
			}
		}
	})
	return c, errors.Join(err, bad)
}

func (c *chunk) add(e *eventCore, r int32, kinds map[string]model.Kind) error {
	n := c.ev.Len()
	if r >= 0 && e.Rank != r {
		return fmt.Errorf("row %d belongs to rank %d, not %d", n, e.Rank, r)
	}
	if n > 0 && (e.Rank != c.ev.Rank[n-1] || e.Start < c.ev.Start[n-1]) {
		return fmt.Errorf("row %d is out of order (start %d after %d)", n, e.Start, c.ev.Start[n-1])
	}
	c.ev.Append(model.Event{Rank: e.Rank, Stream: e.Stream, Kind: kinds[e.Kind], Name: c.names.Intern(e.Name),
		Start: e.Start, Dur: e.Dur, Corr: e.Corr, Iter: e.Iter, Micro: e.Micro, Coll: e.Coll})
	return nil
}

// sameChunks compares two decoded chunks with names resolved; "" if equal.
func sameChunks(a, b *chunk) string {
	if a.ev.Len() != b.ev.Len() {
		return fmt.Sprintf("%d rows vs %d", a.ev.Len(), b.ev.Len())
	}
	for i := range a.ev.Len() {
		x, y := a.ev.At(i), b.ev.At(i)
		nx, ny := a.names.Get(x.Name), b.names.Get(y.Name)
		x.Name, y.Name = 0, 0
		if x != y || nx != ny {
			return fmt.Sprintf("row %d: %+v %q vs %+v %q", i, x, nx, y, ny)
		}
	}
	if !maps.Equal(a.colls, b.colls) {
		return fmt.Sprintf("collectives %v vs %v", a.colls, b.colls)
	}
	return ""
}

// TestColumnarMatchesRowReader decodes every events file of the fixture
// with both decoders.
func TestColumnarMatchesRowReader(t *testing.T) {
	dir, tr := writeFixture(t, 3)
	rows := 0
	for _, r := range []int32{0, 1, 2, 3} {
		pf := openRaw(t, EventsPath(dir, r))
		for _, withColls := range []bool{false, true} {
			col, err := decodeColumns(pf, r, 0, withColls)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := decodeEvents(pf, r, 0, withColls)
			if err != nil {
				t.Fatal(err)
			}
			if msg := sameChunks(ref, col); msg != "" {
				t.Fatalf("rank %d: %s", r, msg)
			}
			if withColls && len(col.colls) == 0 {
				t.Fatalf("rank %d: no collectives decoded", r)
			}
		}
		rows += int(pf.NumRows())
	}
	if rows != tr.Events.Len() {
		t.Fatalf("files hold %d rows, trace %d", rows, tr.Events.Len())
	}
}
