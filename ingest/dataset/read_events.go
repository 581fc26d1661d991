package dataset

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/parquet-go/parquet-go"
	"golang.org/x/sync/errgroup"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// chunk is one events file decoded, with names interned in a table of its
// own (merged into the trace's afterwards, in rank order).
type chunk struct {
	ev    model.Events
	names model.Strings
}

// readEvents reads the given ranks' files in parallel and appends their
// events to t in rank order.
func readEvents(dir string, t *model.Trace, m Manifest, ranks []int32) error {
	chunks := make([]*chunk, len(ranks))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, r := range ranks {
		g.Go(func() error {
			c, err := readEventFile(EventsPath(dir, r), r, rankCount(m, r))
			chunks[i] = c
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	total := 0
	for _, c := range chunks {
		total += c.ev.Len()
	}
	t.Events.Grow(total)
	for _, c := range chunks {
		appendChunk(t, c)
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
func readEventFile(path string, r int32, want int64) (*chunk, error) {
	pf, closeFile, err := openParquet(path)
	if err != nil {
		return nil, err
	}
	defer closeFile()
	if pf.NumRows() != want {
		return nil, fmt.Errorf("%s: %d rows, the manifest says %d", path, pf.NumRows(), want)
	}
	c, err := decodeEvents(pf, r, int(want))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// decodeEvents decodes an opened events file whose rows must all belong to
// rank r (any rank when r < 0) and be sorted by start; capacity is a hint.
func decodeEvents(pf *parquet.File, r int32, capacity int) (*chunk, error) {
	c := &chunk{}
	c.ev.Grow(capacity)
	kinds := kindTable()
	var bad error
	err := readAll(pf, func(rows []eventRow) {
		for _, e := range rows {
			if bad == nil {
				bad = c.add(e, r, kinds)
			}
		}
	})
	return c, errors.Join(err, bad)
}

func (c *chunk) add(e eventRow, r int32, kinds map[string]model.Kind) error {
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

func kindTable() map[string]model.Kind {
	m := map[string]model.Kind{}
	for _, k := range model.Kinds() {
		m[k.String()] = k
	}
	return m
}

// appendChunk appends c's events to t, re-interning its names.
func appendChunk(t *model.Trace, c *chunk) {
	names := c.names.All()
	ids := make([]int32, len(names))
	for i, s := range names {
		ids[i] = t.Names.Intern(s)
	}
	base := t.Events.Len()
	ev := &t.Events
	ev.Rank, ev.Stream, ev.Kind = append(ev.Rank, c.ev.Rank...), append(ev.Stream, c.ev.Stream...), append(ev.Kind, c.ev.Kind...)
	ev.Name, ev.Start, ev.Dur = append(ev.Name, c.ev.Name...), append(ev.Start, c.ev.Start...), append(ev.Dur, c.ev.Dur...)
	ev.Corr, ev.Iter = append(ev.Corr, c.ev.Corr...), append(ev.Iter, c.ev.Iter...)
	ev.Micro, ev.Coll = append(ev.Micro, c.ev.Micro...), append(ev.Coll, c.ev.Coll...)
	for i := base; i < ev.Len(); i++ {
		ev.Name[i] = ids[ev.Name[i]]
	}
}
