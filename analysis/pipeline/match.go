package pipeline

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/model"
)

// Peer is what cross-rank matching learnt of a PP transfer kernel that
// carries no direction or peer (batched p2p, kernel-only captures).
type Peer struct {
	Send      bool // this end sends: a vote of three cues (sendVotes)
	PeerStage int
}

// matchTol bounds how far apart, on the aligned clock, the ends of the two
// halves of one transfer may be.
const matchTol = 50_000

// end is one unmatched PP kernel on the aligned clock.
type end struct {
	row        int
	rank       int32
	stage      int
	group      model.Coord // the rank's coordinates with PP cleared: its pipeline group
	start, end int64
	resume     int64 // the start of the rank's first compute kernel at or after the end − the end
	waited     bool  // the rank's compute idled up to the end and resumed right after it
}

// MatchPeers pairs every PP transfer kernel without a known direction with
// its counterpart on a neighbouring stage of the same pipeline group (the
// ranks that differ only in PP): the one whose end is nearest on the
// aligned clock (off: a rank's clock minus the reference), within 50 µs.
// stageOf gives each rank's stage, p the number of stages.
func MatchPeers(t *model.Trace, p int, stageOf func(int32) int, off func(int32) int64) map[int]Peer {
	m, _ := MatchPeersIn(t, t.Ranked(), p, stageOf, off)
	return m
}

// MatchPeersIn is MatchPeers reading the PP kernels from t and, for each
// rank that has one without a direction, its compute kernels from src
// (docs/memory.md); the map is keyed by row of t. The error is src's.
func MatchPeersIn(t *model.Trace, src model.RankSource, p int, stageOf func(int32) int, off func(int32) int64) (map[int]Peer, error) {
	ends, err := unmatched(t, src, stageOf, off)
	if err != nil {
		return nil, err
	}
	type cand struct {
		a, b int
		d    int64
	}
	var cs []cand
	for i := range ends {
		for j := i + 1; j < len(ends) && ends[j].end-ends[i].end <= matchTol; j++ {
			if neighbours(ends[i], ends[j], p) {
				cs = append(cs, cand{i, j, ends[j].end - ends[i].end})
			}
		}
	}
	slices.SortStableFunc(cs, func(x, y cand) int { return cmp.Compare(x.d, y.d) })
	used := make([]bool, len(ends))
	links := map[linkKey][]transfer{}
	for _, c := range cs {
		if used[c.a] || used[c.b] {
			continue
		}
		used[c.a], used[c.b] = true, true
		k, tr := newTransfer(ends[c.a], ends[c.b], p)
		links[k] = append(links[k], tr)
	}
	out := map[int]Peer{}
	for _, trs := range links {
		orient(trs)
		for _, tr := range trs {
			out[tr.up.row] = Peer{Send: tr.act, PeerStage: tr.down.stage}
			out[tr.down.row] = Peer{Send: !tr.act, PeerStage: tr.up.stage}
		}
	}
	return out, nil
}

// linkKey is one link of a pipeline: the group and the upstream and
// downstream stages (activations flow up → down).
type linkKey struct {
	group    model.Coord
	up, down int
}

// transfer is one matched transfer on a link; act when it carries an
// activation (up sends), as orient decides.
type transfer struct {
	up, down end
	vote     int // sendVotes(up, down): evidence that up sends
	act      bool
}

// newTransfer orients the pair a, b along the pipeline: the upstream
// stage is the lower one, except on the ring link from the last stage back
// to stage 0 of an interleaved pipeline (p > 2).
func newTransfer(a, b end, p int) (linkKey, transfer) {
	if (a.stage+1)%p != b.stage || p == 2 && a.stage > b.stage {
		a, b = b, a
	}
	return linkKey{a.group, a.stage, b.stage}, transfer{up: a, down: b, vote: sendVotes(a, b)}
}

// orient decides which transfers of one link carry activations: the
// assignment that agrees most with the per-transfer votes such that, in
// time order, gradients never outnumber the activations before them (a
// microbatch's gradient comes back after its activation went up) and the
// two counts end equal.
func orient(trs []transfer) {
	slices.SortStableFunc(trs, func(x, y transfer) int { return cmp.Compare(x.up.end, y.up.end) })
	n := len(trs)
	const none = -1 << 30
	// best[k][d]: the best score of the first k transfers with d more
	// activations than gradients.
	best := make([][]int, n+1)
	for k := range best {
		best[k] = slices.Repeat([]int{none}, n+2)
	}
	best[0][0] = 0
	for k, tr := range trs {
		for d := 0; d <= k; d++ {
			if best[k][d] == none {
				continue
			}
			best[k+1][d+1] = max(best[k+1][d+1], best[k][d]+tr.vote)
			if d > 0 {
				best[k+1][d-1] = max(best[k+1][d-1], best[k][d]-tr.vote)
			}
		}
	}
	d := 0
	if best[n][0] == none {
		d = slices.Index(best[n], slices.Max(best[n]))
	}
	for k := n - 1; k >= 0; k-- {
		if d > 0 && best[k][d-1] != none && best[k][d-1]+trs[k].vote == best[k+1][d] {
			trs[k].act, d = true, d-1
			continue
		}
		d++
	}
}

// unmatched lists the PP kernels whose direction the trace does not say,
// by aligned end; a rank's compute kernels come from src.
func unmatched(t *model.Trace, src model.RankSource, stageOf func(int32) int, off func(int32) int64) ([]end, error) {
	var out []end
	for _, rk := range t.Ranks {
		s := stageOf(rk.Rank)
		if s < 0 {
			continue
		}
		g := rk.Coord
		g.PP = -1
		lo, hi := t.Events.RankRange(rk.Rank)
		o := off(rk.Rank)
		var cs, ce []int64 // the rank's compute starts and ends, read at its first unmatched kernel
		read := false
		for i := t.Events.NextKind(model.KindComm, lo, hi); i < hi; i = t.Events.NextKind(model.KindComm, i+1, hi) {
			if measure.AxisOf(t, i) != model.AxisPP {
				continue
			}
			if _, _, ok := direction(t, i, rk.Rank); ok {
				continue
			}
			if !read {
				read = true
				v, err := src.RankEvents(rk.Rank)
				if err != nil {
					return nil, err
				}
				cs, ce = computeStarts(v, 0, v.Events.Len()), computeEnds(v, 0, v.Events.Len())
			}
			st, en := t.Events.Start[i], t.Events.Start[i]+t.Events.Dur[i]
			out = append(out, end{i, rk.Rank, s, g, st - o, en - o, resume(cs, en), waited(cs, ce, en)})
		}
	}
	slices.SortStableFunc(out, func(a, b end) int { return cmp.Compare(a.end, b.end) })
	return out, nil
}

// neighbours reports whether a and b are on adjacent stages (in the ring of
// model chunks) of the same pipeline group.
func neighbours(a, b end, p int) bool {
	if a.group != b.group || a.rank == b.rank || a.stage == b.stage {
		return false
	}
	return (a.stage+1)%p == b.stage || (b.stage+1)%p == a.stage
}

// computeStarts lists the starts of the compute kernels in rows [lo, hi)
// (sorted, as the rows are).
func computeStarts(t *model.Trace, lo, hi int) []int64 {
	var out []int64
	for i := lo; i < hi; i++ {
		if t.Events.Kind[i] == model.KindCompute {
			out = append(out, t.Events.Start[i])
		}
	}
	return out
}

// resume is how long after ts the next compute kernel starts (large when
// none does).
func resume(starts []int64, ts int64) int64 {
	k, _ := slices.BinarySearch(starts, ts)
	if k == len(starts) {
		return 1 << 62
	}
	return starts[k] - ts
}

// sendVotes is the evidence that a, not b, is the sending end of one
// transfer (positive: a sends), weighted by how often each cue was right
// on the generator's jobs (docs/analysis.md): a receiver that idled for
// the data and resumed right after it (3); a posted receive starts before
// the sender's kernel, which waits for the compute that made the data (3);
// the sender, still computing, runs its next kernel sooner after the end
// than the receiver, which may have to be launched or fed first (1).
func sendVotes(a, b end) int {
	v := 0
	vote := func(w int, x, y int64) {
		if x < y {
			v += w
		} else if x > y {
			v -= w
		}
	}
	if a.waited != b.waited {
		v += 3 * map[bool]int{true: -1, false: 1}[a.waited]
	}
	vote(3, b.start, a.start)
	vote(1, a.resume, b.resume)
	return v
}

// waitNs bounds how soon after the data arrived a waiting receiver
// resumes compute, and how long its compute must have idled before.
const waitNs = 20_000

// waited reports whether the compute stream idled for at least waitNs up
// to ts and resumed within waitNs after it (starts and ends sorted).
func waited(starts, ends []int64, ts int64) bool {
	if resume(starts, ts) > waitNs {
		return false
	}
	k, _ := slices.BinarySearch(ends, ts+1)
	i, _ := slices.BinarySearch(starts, ts)
	busy := i > 0 && k < len(ends) && i > k // a kernel started before ts has not ended by it
	return !busy && (k == 0 || ts-ends[k-1] >= waitNs)
}

// computeEnds lists the ends of the compute kernels in rows [lo, hi), sorted.
func computeEnds(t *model.Trace, lo, hi int) []int64 {
	var out []int64
	for i := lo; i < hi; i++ {
		if t.Events.Kind[i] == model.KindCompute {
			out = append(out, t.Events.Start[i]+t.Events.Dur[i])
		}
	}
	slices.Sort(out)
	return out
}
