package dataset

import (
	"context"
	"fmt"
	"runtime"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// Ranked is a dataset read for an analysis that holds the events of a few
// ranks at a time (docs/memory.md, analysis.AnalyzeRanks): Trace has every
// table and, of the events, only the cross-rank rows of every rank
// (model.Events.CrossRank); RankEvents reads one rank's events file again,
// whole. Trace is what Read returns with the other rows left out: the same
// names, ids and collectives.
type Ranked struct {
	Trace *model.Trace
	dir   string
	m     Manifest
	local []int32           // row of Trace -> its row in its rank's events file
	ids   map[int32][]int32 // rank -> its file's name ids in Trace.Names
	timed []int32
	count map[int32]int64 // rank -> its file's rows, as the manifest says

	annotation func(name string) bool // which annotations to keep; nil: all
}

// ReadRanked reads the dataset in dir as Ranked: the tables, then every
// rank's events file, a few ranks at a time (one per core), keeping the
// cross-rank rows; of the CPU range annotations only those whose name
// annotation accepts (nil: every one; an analysis reads only its step
// ranges: analysis.StepAnnotation).
func ReadRanked(dir string, annotation func(name string) bool) (*Ranked, Manifest, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, Manifest{}, err
	}
	t := &model.Trace{Sources: m.Sources, World: m.World, Absent: m.Absent}
	if err := readTables(dir, t, m, false); err != nil {
		return nil, Manifest{}, fmt.Errorf("reading dataset: %w", err)
	}
	rk := &Ranked{Trace: t, dir: dir, m: m, ids: map[int32][]int32{}, count: map[int32]int64{}, annotation: annotation}
	for i, n := range rankCounts(m, m.Ranks) {
		rk.count[m.Ranks[i]] = n
	}
	if err := rk.readCross(); err != nil {
		return nil, Manifest{}, fmt.Errorf("reading dataset: %w", err)
	}
	if err := readCounters(dir, t, nil); err != nil {
		return nil, Manifest{}, fmt.Errorf("reading dataset: %w", err)
	}
	t.Events.Link()
	for _, r := range t.Ranks {
		if rk.count[r.Rank] > 0 {
			rk.timed = append(rk.timed, r.Rank)
		}
	}
	return rk, m, nil
}

// readCross decodes the ranks' files on every core and, in rank order,
// interns each file's names (as Read does) and keeps its cross-rank rows
// (source.InOrder: one goroutine a core decodes while the caller keeps,
// so at most one file more than the cores is held at once).
func (rk *Ranked) readCross() error {
	ranks := rk.m.Ranks
	read := func(i int) (*chunk, error) { return rk.readFile(ranks[i]) }
	keep := func(i int, c *chunk) error {
		rk.keepCross(ranks[i], c)
		return nil
	}
	return source.InOrder(context.Background(), len(ranks), runtime.GOMAXPROCS(0)+1, read, keep)
}

// keepCross interns c's names in the trace's table, in c's order, and
// appends c's cross-rank rows to the trace.
func (rk *Ranked) keepCross(r int32, c *chunk) {
	t := rk.Trace
	names := c.names.All()
	ids := make([]int32, len(names))
	for i, s := range names {
		ids[i] = t.Names.Intern(s)
	}
	rk.ids[r] = ids
	keep := rk.annotations(names)
	ev := &c.ev
	for i := range ev.Len() {
		if ev.CrossRank(i) && (ev.Kind[i] != model.KindAnnotation || keep[ev.Name[i]]) {
			e := ev.At(i)
			e.Name = ids[e.Name]
			t.Events.Append(e)
			rk.local = append(rk.local, int32(i))
		}
	}
}

// annotations says, per name of a file, whether its annotations are kept.
func (rk *Ranked) annotations(names []string) []bool {
	keep := make([]bool, len(names))
	for i, s := range names {
		keep[i] = rk.annotation == nil || rk.annotation(s)
	}
	return keep
}

// TimedRanks lists the ranks that have events, ascending.
func (rk *Ranked) TimedRanks() []int32 { return rk.timed }

// Local maps a row of Trace to the row of the same event in its rank's
// events (RankEvents).
func (rk *Ranked) Local(row int32) int32 { return rk.local[row] }

// RankEvents reads rank's events file again: a trace with those events and
// Trace's tables, each cross-rank row carrying the collective Trace has for
// it now (an analysis may have changed it), linked. Rows that name a
// stream, collective or name outside the tables are an error.
func (rk *Ranked) RankEvents(rank int32) (*model.Trace, error) {
	ev, ok, err := rk.FileEvents(rank)
	if err != nil || !ok {
		return &model.Trace{}, err
	}
	v := *rk.Trace
	v.Events = *ev
	rk.carryColls(&v.Events, rank)
	if err := CheckRankRows(&v, rank); err != nil {
		return nil, fmt.Errorf("reading dataset: %w", err)
	}
	v.Events.Link()
	return &v, nil
}

// FileEvents reads rank's events file again, its name ids turned into
// Trace's and nothing else changed (no collective carried, not checked
// nor linked); ok is false, with no events, for a rank the dataset has no
// file of.
func (rk *Ranked) FileEvents(rank int32) (*model.Events, bool, error) {
	ids, ok := rk.ids[rank]
	if !ok {
		return nil, false, nil
	}
	c, err := rk.readFile(rank)
	if err != nil {
		return nil, true, fmt.Errorf("reading dataset: %w", err)
	}
	if err := renumberNames(&c.ev, ids); err != nil {
		return nil, true, fmt.Errorf("reading dataset: rank %d: %w", rank, err)
	}
	return &c.ev, true, nil
}

// Model is the cross-rank trace (Trace).
func (rk *Ranked) Model() *model.Trace { return rk.Trace }

// readFile decodes rank's events file, which must hold the rows the
// manifest says, into a chunk of its own.
func (rk *Ranked) readFile(rank int32) (*chunk, error) {
	n, ok := rk.count[rank]
	if !ok {
		n = -1
	}
	c := &chunk{}
	return c, readEventFile(EventsPath(rk.dir, rank), rank, n, false, c)
}

// renumberNames turns the name ids of one file's events into the trace's.
func renumberNames(ev *model.Events, ids []int32) error {
	for i, n := range ev.Name {
		if n < 0 || int(n) >= len(ids) {
			return fmt.Errorf("event %d has name id %d, out of range", i, n)
		}
		ev.Name[i] = ids[n]
	}
	return nil
}

// carryColls sets the collective of each of rank's cross-rank rows in ev
// (its events file) to the one the cross-rank trace has now.
func (rk *Ranked) carryColls(ev *model.Events, rank int32) {
	lo, hi := rk.Trace.Events.RankRange(rank)
	for j := lo; j < hi; j++ {
		if l := rk.local[j]; int(l) < ev.Len() {
			ev.Coll[l] = rk.Trace.Events.Coll[j]
		}
	}
}

// CheckRankRows checks what Validate checks of the rows of one rank's
// events that the tables bound: streams of the rank, collectives and
// durations in range.
func CheckRankRows(t *model.Trace, rank int32) error {
	ev := &t.Events
	for i := range ev.Len() {
		s, c := ev.Stream[i], ev.Coll[i]
		switch {
		case s >= int32(len(t.Streams)) || s >= 0 && t.Streams[s].Rank != rank:
			return fmt.Errorf("rank %d: event %d has stream %d, which is out of range or belongs to another rank", rank, i, s)
		case c < -1 || c >= int32(t.Colls.Len()):
			return fmt.Errorf("rank %d: event %d has collective %d, out of range", rank, i, c)
		case ev.Dur[i] < 0:
			return fmt.Errorf("rank %d: event %d has duration %d ns", rank, i, ev.Dur[i])
		}
	}
	return nil
}

// EventCount is the number of events of every rank, as the manifest says.
func (rk *Ranked) EventCount() int64 {
	var n int64
	for _, c := range rk.m.RankEvents {
		n += c
	}
	return n
}
