package dataset

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/parquet-go/parquet-go"
	"golang.org/x/sync/errgroup"

	"github.com/tpptrace/tpptrace/model"
)

// batchRows is how many event rows are converted and written at a time.
const batchRows = 8192

// EventsPath returns the path of rank r's events file in dir.
func EventsPath(dir string, r int32) string {
	return filepath.Join(dir, eventsDir, fmt.Sprintf("rank=%05d.parquet", r))
}

// rankSpan is one rank's rows [lo, hi) in the sorted order.
type rankSpan struct {
	rank   int32
	lo, hi int
}

// writeEvents writes one events file per rank (every rank of the rank table
// unless Manifest.OnlyTimed, and every rank that has events) and returns
// the ranks and their counts.
func writeEvents(dir string, t *model.Trace, tool writer) ([]int32, []int64, error) {
	if err := os.MkdirAll(filepath.Join(dir, eventsDir), 0o755); err != nil {
		return nil, nil, fmt.Errorf("writing dataset events: %w", err)
	}
	perm := sortOrder(&t.Events)
	spans := rankSpans(t, perm, !tool.onlyTimed)
	write, err := rankWriter(t, perm, tool)
	if err != nil {
		return nil, nil, fmt.Errorf("writing dataset events: %w", err)
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, s := range spans {
		g.Go(func() error {
			path := EventsPath(dir, s.rank)
			if err := write(path, s); err != nil {
				return err
			}
			tool.sync.add(path)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, fmt.Errorf("writing dataset events: %w", err)
	}
	ranks, counts := make([]int32, len(spans)), make([]int64, len(spans))
	for i, s := range spans {
		ranks[i], counts[i] = s.rank, int64(s.hi-s.lo)
	}
	return ranks, counts, nil
}

// sortOrder returns nil when events are sorted by rank then start, else the
// permutation that sorts them the way model.Events.Sort does.
func sortOrder(ev *model.Events) []int32 {
	sorted := true
	for i := 1; i < ev.Len() && sorted; i++ {
		sorted = ev.Rank[i] > ev.Rank[i-1] || ev.Rank[i] == ev.Rank[i-1] && ev.Start[i] >= ev.Start[i-1]
	}
	if sorted {
		return nil
	}
	return ev.SortOrder()
}

func at(perm []int32, i int) int {
	if perm == nil {
		return i
	}
	return int(perm[i])
}

// rankSpans splits the sorted rows by rank and, with everyRank, adds an
// empty span for each rank of the rank table without events.
func rankSpans(t *model.Trace, perm []int32, everyRank bool) []rankSpan {
	var spans []rankSpan
	for i := 0; i < t.Events.Len(); i++ {
		r := t.Events.Rank[at(perm, i)]
		if len(spans) == 0 || spans[len(spans)-1].rank != r {
			spans = append(spans, rankSpan{r, i, i})
		}
		spans[len(spans)-1].hi = i + 1
	}
	if !everyRank {
		return spans
	}
	for _, r := range t.Ranks {
		i, found := slices.BinarySearchFunc(spans, r.Rank, func(s rankSpan, r int32) int { return cmp.Compare(s.rank, r) })
		if !found {
			spans = slices.Insert(spans, i, rankSpan{rank: r.Rank})
		}
	}
	return spans
}

// rankWriter returns what writes one rank's events file: column by column
// for a fast dataset (writeFastEvents), else parquet-go's writer.
func rankWriter(t *model.Trace, perm []int32, tool writer) (func(string, rankSpan) error, error) {
	if !tool.fast {
		return func(path string, s rankSpan) error { return writeRankEvents(path, t, perm, s, tool) }, nil
	}
	tmpl, err := eventsTemplate(tool)
	if err != nil {
		return nil, err
	}
	return func(path string, s rankSpan) error { return writeFastEvents(path, t, perm, s, tmpl) }, nil
}

func writeRankEvents(path string, t *model.Trace, perm []int32, s rankSpan, tool writer) error {
	return writeParquet(path, eventsOptions(tool), func(w *parquet.GenericWriter[eventRow]) error {
		bp := rowBuffers.Get().(*[]eventRow)
		defer func() { clear(*bp); rowBuffers.Put(bp) }()
		for lo := s.lo; lo < s.hi; lo += batchRows {
			*bp = fillEventRows((*bp)[:0], t, perm, lo, min(lo+batchRows, s.hi))
			if _, err := w.Write(*bp); err != nil {
				return err
			}
		}
		return nil
	})
}

// rowBuffers hold the batches of event rows, one per rank file being
// written: a few buffers of batchRows rows (1 MiB or more each) rather than
// one per rank. A buffer is cleared before it goes back (it holds no strings).
var rowBuffers = sync.Pool{New: func() any {
	b := make([]eventRow, 0, batchRows)
	return &b
}}

func fillEventRows(buf []eventRow, t *model.Trace, perm []int32, lo, hi int) []eventRow {
	ev := &t.Events
	for i := lo; i < hi; i++ {
		j := at(perm, i)
		core := eventCore{Rank: ev.Rank[j], Start: ev.Start[j], Dur: ev.Dur[j], Kind: ev.Kind[j].String(), Name: t.Names.Get(ev.Name[j]),
			Stream: ev.Stream[j], Corr: ev.Corr[j], Iter: ev.Iter[j], Micro: ev.Micro[j], Coll: ev.Coll[j]}
		buf = append(buf, eventRow{core, joinCollective(core.Coll, t)})
	}
	return buf
}

// joinCollective returns the attributes of collective i for an event row.
func joinCollective(i int32, t *model.Trace) eventColl {
	c := model.NewCollective(model.OpNone)
	if i >= 0 && int(i) < t.Colls.Len() {
		c = t.Colls.At(int(i))
	}
	return eventColl{c.Op.String(), c.Bytes, t.Names.Get(c.DType), c.Comm, c.Seq, c.Peer, c.GroupSize}
}
