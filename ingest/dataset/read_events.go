package dataset

import (
	"fmt"
	"maps"
	"runtime"
	"slices"

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

// readEvents reads the given ranks' files in parallel and appends their
// events to t in rank order. With withColls it also reads the collective
// columns joined into the files and rebuilds t.Colls from them.
func readEvents(dir string, t *model.Trace, m Manifest, ranks []int32, withColls bool) error {
	chunks := make([]*chunk, len(ranks))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, r := range ranks {
		g.Go(func() error {
			c, err := readEventFile(EventsPath(dir, r), r, rankCount(m, r), withColls)
			chunks[i] = c
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	evs := []*model.Events{&t.Events}
	for _, c := range chunks {
		internChunk(t, c)
		evs = append(evs, &c.ev)
	}
	t.Events = model.ConcatEvents(evs, true) // column by column, freeing each chunk's column once copied
	if withColls {
		rebuildCollectives(t, chunks)
	}
	return nil
}

func rankCount(m Manifest, r int32) int64 {
	for i, x := range m.Ranks {
		if x == r {
			return m.RankEvents[i]
		}
	}
	return -1
}

// readEventFile reads rank r's events file, which must hold want rows.
func readEventFile(path string, r int32, want int64, withColls bool) (*chunk, error) {
	pf, closeFile, err := openParquet(path)
	if err != nil {
		return nil, err
	}
	defer closeFile()
	if pf.NumRows() != want {
		return nil, fmt.Errorf("%s: %d rows, the manifest says %d", path, pf.NumRows(), want)
	}
	c, err := decodeColumns(pf, r, int(want), withColls)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
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
