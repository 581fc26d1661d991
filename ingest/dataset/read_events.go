package dataset

import (
	"fmt"
	"maps"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/tpptrace/tpptrace/model"
)

// chunk is one events file decoded, with names interned in a table of its
// own (merged into the trace's afterwards, in rank order).
type chunk struct {
	ev    model.Events
	names model.Strings
	colls map[int32]eventColl // the joined collectives, when read
}

// readEventFiles reads the given ranks' files in parallel, each into a
// chunk. When the manifest's row counts are plausible for the files' sizes
// (presize), the chunks' columns are windows of one set of columns sized
// for every row, so that the events are decoded in place, never copied.
func readEventFiles(dir string, m Manifest, ranks []int32, withColls bool) ([]*chunk, *model.Events, error) {
	counts := rankCounts(m, ranks)
	all, offsets := presize(dir, ranks, counts)
	chunks := make([]*chunk, len(ranks))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, r := range ranks {
		g.Go(func() error {
			c := &chunk{}
			if all != nil {
				c.ev = window(all, offsets[i], offsets[i]+int(counts[i]))
			}
			err := readEventFile(EventsPath(dir, r), r, counts[i], withColls, c)
			chunks[i] = c
			return err
		})
	}
	return chunks, all, g.Wait()
}

// addEvents interns the chunks' names in t's table, in rank order, and
// sets t.Events to their events in rank order: all when the chunks were
// decoded into it, else their columns concatenated (freeing each chunk's
// column once copied). With withColls it also rebuilds t.Colls from the
// collective columns joined into the files.
func addEvents(t *model.Trace, chunks []*chunk, all *model.Events, withColls bool) {
	for _, c := range chunks {
		internChunk(t, c)
	}
	if all != nil && inPlace(all, chunks) {
		t.Events = *all
	} else {
		evs := []*model.Events{&t.Events}
		for _, c := range chunks {
			evs = append(evs, &c.ev)
		}
		t.Events = model.ConcatEvents(evs, true)
	}
	if withColls {
		rebuildCollectives(t, chunks)
	}
}

// rankCounts is the manifest's row count of each rank, -1 for a rank it
// does not list.
func rankCounts(m Manifest, ranks []int32) []int64 {
	index := make(map[int32]int64, len(m.Ranks))
	for i, r := range m.Ranks {
		index[r] = m.RankEvents[i]
	}
	counts := make([]int64, len(ranks))
	for i, r := range ranks {
		n, ok := index[r]
		if !ok {
			n = -1
		}
		counts[i] = n
	}
	return counts
}

// maxRowsPerByte bounds the rows presize trusts a file of a given size to
// hold, so that a damaged or hostile manifest cannot make the reader
// allocate more than a small multiple of the files' size before the files'
// own row counts are checked. Real events files hold well under one row a
// byte (a 64-rank cache entry: 0.1).
const maxRowsPerByte = 8

// presize returns columns sized for every row and each rank's first row in
// them, or nil when a count is negative or implausible for its file's size
// (then every chunk grows its own columns, as the file's footer says, and
// the chunks are concatenated).
func presize(dir string, ranks []int32, counts []int64) (*model.Events, []int) {
	offsets := make([]int, len(ranks))
	total := int64(0)
	for i, r := range ranks {
		fi, err := os.Stat(EventsPath(dir, r))
		if err != nil || counts[i] < 0 || counts[i] > maxRowsPerByte*fi.Size() || total+counts[i] > math.MaxInt32 {
			return nil, nil
		}
		offsets[i], total = int(total), total+counts[i]
	}
	all := model.BlockEvents(int(total))
	return &all, offsets
}

// window is rows [lo, hi) of all as empty columns with room for hi-lo rows:
// appending up to that many fills all in place.
func window(all *model.Events, lo, hi int) model.Events {
	return model.Events{Rank: all.Rank[lo:lo:hi], Stream: all.Stream[lo:lo:hi], Kind: all.Kind[lo:lo:hi], Name: all.Name[lo:lo:hi],
		Start: all.Start[lo:lo:hi], Dur: all.Dur[lo:lo:hi], Corr: all.Corr[lo:lo:hi], Iter: all.Iter[lo:lo:hi],
		Micro: all.Micro[lo:lo:hi], Coll: all.Coll[lo:lo:hi]}
}

// inPlace reports whether the chunks' columns are, one after the other,
// exactly all's (no chunk outgrew its window, and together they fill all).
func inPlace(all *model.Events, chunks []*chunk) bool {
	off := 0
	for _, c := range chunks {
		n := c.ev.Len()
		if n > 0 && !sameWindow(all, &c.ev, off) {
			return false
		}
		off += n
	}
	return off == all.Len()
}

func sameWindow(all, ev *model.Events, off int) bool {
	n := ev.Len()
	return off+n <= all.Len() && &ev.Rank[0] == &all.Rank[off] && &ev.Stream[0] == &all.Stream[off] &&
		&ev.Kind[0] == &all.Kind[off] && &ev.Name[0] == &all.Name[off] && &ev.Start[0] == &all.Start[off] &&
		&ev.Dur[0] == &all.Dur[off] && &ev.Corr[0] == &all.Corr[off] && &ev.Iter[0] == &all.Iter[off] &&
		&ev.Micro[0] == &all.Micro[off] && &ev.Coll[0] == &all.Coll[off] && len(ev.Kind) == n && len(ev.Name) == n &&
		len(ev.Rank) == n && len(ev.Stream) == n && len(ev.Dur) == n && len(ev.Corr) == n && len(ev.Iter) == n &&
		len(ev.Micro) == n && len(ev.Coll) == n
}

// readEventFile reads rank r's events file, which must hold want rows,
// appending to c's columns.
func readEventFile(path string, r int32, want int64, withColls bool, c *chunk) error {
	sc := scratches.Get().(*fastScratch)
	defer scratches.Put(sc) // after pf, which reads sc.file, is done with
	pf, whole, closeFile, err := openParquetBytes(path, sc.file)
	if err != nil {
		return err
	}
	defer closeFile()
	if cap(whole) > cap(sc.file) {
		sc.file = whole[:0] // nothing keeps the file's bytes past this call: names are copied as interned
	}
	if pf.NumRows() != want {
		return fmt.Errorf("%s: %d rows, the manifest says %d", path, pf.NumRows(), want)
	}
	if c.ev.Rank == nil {
		c.ev.Grow(int(want))
	}
	if !withColls {
		if decodeFast(whole, pf, r, c, sc) {
			return nil
		}
		c.reset()
	}
	if err := decodeInto(pf, r, c, withColls); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// scratches are the fast path's buffers, one per reader at a time.
var scratches = sync.Pool{New: func() any { return new(fastScratch) }}

// reset empties c's columns (keeping their room) and names, for the slow
// path after the fast one gave up.
func (c *chunk) reset() {
	ev := &c.ev
	ev.Rank, ev.Stream, ev.Kind, ev.Name = ev.Rank[:0], ev.Stream[:0], ev.Kind[:0], ev.Name[:0]
	ev.Start, ev.Dur, ev.Corr, ev.Iter = ev.Start[:0], ev.Dur[:0], ev.Corr[:0], ev.Iter[:0]
	ev.Micro, ev.Coll = ev.Micro[:0], ev.Coll[:0]
	c.names = model.Strings{}
}

func kindTable() map[string]model.Kind {
	m := map[string]model.Kind{}
	for _, k := range model.Kinds() {
		m[k.String()] = k
	}
	return m
}

// internChunk interns c's names in t's table, in c's order, and renumbers
// c's events to t's ids.
func internChunk(t *model.Trace, c *chunk) {
	names := c.names.All()
	ids := make([]int32, len(names))
	for i, s := range names {
		ids[i] = t.Names.Intern(s)
	}
	for i, n := range c.ev.Name {
		c.ev.Name[i] = ids[n]
	}
}

// rebuildCollectives sets t.Colls to the collectives the chunks' events
// refer to, in the order of their index in the dataset, and renumbers the
// events' references.
func rebuildCollectives(t *model.Trace, chunks []*chunk) {
	all := map[int32]eventColl{}
	for _, c := range chunks {
		maps.Copy(all, c.colls)
	}
	remap := map[int32]int32{}
	t.Colls = model.Collectives{}
	for _, i := range slices.Sorted(maps.Keys(all)) {
		a := all[i]
		remap[i] = t.Colls.Append(model.Collective{Op: model.ParseOp(a.Op), Bytes: a.Bytes, DType: t.Names.Intern(a.DType),
			Comm: a.Comm, Seq: a.Seq, Peer: a.Peer, GroupSize: a.GroupSize})
	}
	for i, c := range t.Events.Coll {
		if c >= 0 {
			t.Events.Coll[i] = remap[c]
		}
	}
}
