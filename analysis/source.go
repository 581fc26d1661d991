package analysis

import (
	"cmp"
	"regexp"
	"slices"
	"sync"

	"github.com/tpptrace/tpptrace/analysis/pipeline"
	"github.com/tpptrace/tpptrace/analysis/steps"
	"github.com/tpptrace/tpptrace/model"
)

// RankSource hands the per-rank steps one rank's events at a time
// (docs/memory.md): the cross-rank steps read the run's trace (r.t), whose
// rows the collective instances and the pipeline peers name; the per-rank
// pass, and the parts of segment that need a rank's every event, read each
// rank's events alone. A rank's events carry the collective (Events.Coll)
// that the run's trace has for the same event: classify may change it.
type RankSource interface {
	model.RankSource
	// Local maps a row of the run's trace to the row of the same event in
	// its rank's events (RankEvents).
	Local(row int32) int32
}

// StepAnnotation says which CPU range annotations the cross-rank steps
// read, by name: step ranges (steps.StepLike) and, with re (the step
// regexp, Options.StepRegex), the ranges re matches. A trace for
// AnalyzeRanks may leave the other annotations out (docs/memory.md).
func StepAnnotation(re *regexp.Regexp) func(name string) bool {
	return func(name string) bool {
		if _, _, ok := steps.StepLike(name); ok {
			return true
		}
		return re != nil && re.MatchString(name)
	}
}

// fullSource is the in-memory trace holding every rank's events: a rank's
// view is its rows of the columns (model.Trace.RankView), no copy but the
// launch column rebased to the view, made once per rank on first use and
// handed to every later reader (segment and the per-rank pass each read
// every rank). The views are made after classify, the last step that adds
// to the trace's tables, so they see the tables as every later step does.
type fullSource struct {
	model.RankSource
	t     *model.Trace
	first map[int32]int32 // rank -> its first row
	views []rankView      // by index in t.Ranks
}

// rankView is one rank's view, made once.
type rankView struct {
	once sync.Once
	v    *model.Trace
}

func newFullSource(t *model.Trace) *fullSource {
	s := &fullSource{RankSource: t.Ranked(), t: t, first: make(map[int32]int32, len(t.Ranks)), views: make([]rankView, len(t.Ranks))}
	for _, rk := range t.Ranks {
		lo, _ := t.Events.RankRange(rk.Rank)
		s.first[rk.Rank] = int32(lo)
	}
	return s
}

// RankEvents is rank's view, the same one for every call (treat it as
// read-only, as RankView says).
func (s *fullSource) RankEvents(rank int32) (*model.Trace, error) {
	i := s.t.FindRank(rank)
	if i < 0 || i >= len(s.views) {
		return s.t.RankView(rank), nil
	}
	c := &s.views[i]
	c.once.Do(func() { c.v = s.t.RankView(rank) })
	return c.v, nil
}

func (s *fullSource) Local(row int32) int32 { return row - s.first[s.t.Events.Rank[row]] }

// rankIn is what the cross-rank steps hand one rank's pass, by row of the
// rank's view: its collective members' waits and what MatchPeers learnt of
// its PP transfers.
type rankIn struct {
	waits []rowWait
	peers map[int]pipeline.Peer
}

type rowWait struct {
	row  int32
	wait int64
}

// rankInputs splits the instance members' waits and the peers, both keyed
// by row of the run's trace, into one rankIn per entry of r.ranks.
func (r *run) rankInputs(src RankSource, peers map[int]pipeline.Peer) []rankIn {
	in := make([]rankIn, len(r.ranks))
	for _, m := range r.tm.Members {
		if i, ok := r.rankSlot(m.Rank); ok {
			in[i].waits = append(in[i].waits, rowWait{src.Local(m.Event), max(m.Wait, 0)})
		}
	}
	for row, p := range peers {
		i, ok := r.rankSlot(r.t.Events.Rank[row])
		if !ok {
			continue
		}
		if in[i].peers == nil {
			in[i].peers = map[int]pipeline.Peer{}
		}
		in[i].peers[int(src.Local(int32(row)))] = p
	}
	return in
}

// rowWaits is, of a rank's view of n rows, the rows that have a wait
// (ascending, each once, those under n) and their waits, for measure's
// SplitWaitsAt (measure.EventWaits holds a wait for every row; a rank's
// members are a few per cent of its rows). A later member of the same row
// overwrites an earlier one, as there.
func (in *rankIn) rowWaits(n int) ([]int32, []int64) {
	ws := make([]rowWait, 0, len(in.waits))
	for _, x := range in.waits {
		if int(x.row) < n && x.row >= 0 {
			ws = append(ws, x)
		}
	}
	slices.SortStableFunc(ws, func(a, b rowWait) int { return cmp.Compare(a.row, b.row) })
	rows, waits := make([]int32, 0, len(ws)), make([]int64, 0, len(ws))
	for k, x := range ws {
		if k+1 < len(ws) && ws[k+1].row == x.row {
			continue // a later member of the row follows
		}
		rows, waits = append(rows, x.row), append(waits, x.wait)
	}
	return rows, waits
}
