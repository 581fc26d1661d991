package hang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// member is one rank's view of one process group.
type member struct {
	rank   int32
	ents   []model.FREntry // this group's entries, in record order
	at     map[seqKey]int
	status model.FRGroupStatus
	known  bool // status was found
}

// seqKey is a sequence number of one kind (collective or point-to-point).
type seqKey struct {
	p2p bool
	seq int64
}

// index maps each sequence number of m's entries to the first entry that
// holds it, so entryAt is a lookup.
func (m *member) index() {
	m.at = make(map[seqKey]int, len(m.ents))
	for i, e := range m.ents {
		k := seqKey{e.IsP2P, seqOf(e, e.IsP2P)}
		if _, ok := m.at[k]; !ok {
			m.at[k] = i
		}
	}
}

// byGroup splits every dump's entries by process-group name once, so that
// each group view takes its members' entries without scanning all of them.
func byGroup(dumps []*model.FRDump) map[int32]map[string][]model.FREntry {
	out := make(map[int32]map[string][]model.FREntry, len(dumps))
	for _, d := range dumps {
		m := map[string][]model.FREntry{}
		for _, e := range d.Entries {
			m[e.PGName] = append(m[e.PGName], e)
		}
		out[d.Rank] = m
	}
	return out
}

type groupView struct {
	pg      model.FRGroup
	members []member
	anyP2P  bool // some member holds a point-to-point entry
	anyColl bool // some member holds a collective entry
}

func newGroupView(pg model.FRGroup, byRank map[int32]*model.FRDump, ents map[int32]map[string][]model.FREntry) *groupView {
	g := &groupView{pg: pg}
	for _, r := range pg.Ranks {
		if byRank[r] == nil {
			continue
		}
		m := member{rank: r, ents: ents[r][pg.Name]}
		for _, e := range m.ents {
			g.anyP2P = g.anyP2P || e.IsP2P
			g.anyColl = g.anyColl || !e.IsP2P
		}
		m.index()
		g.members = append(g.members, m)
	}
	g.attachStatus(byRank)
	return g
}

// attachStatus finds each member's pg_status record. Its key is a rank-local
// id, known from the member's own entries or, for a member without entries,
// taken from its peers (frameworks create groups in the same order on every
// rank, so local ids mostly agree).
func (g *groupView) attachStatus(byRank map[int32]*model.FRDump) {
	common := g.commonLocalID()
	for i := range g.members {
		m := &g.members[i]
		id := common
		if len(m.ents) > 0 {
			id = m.ents[0].PGID
		}
		m.status, m.known = byRank[m.rank].Status[id]
	}
}

func (g *groupView) commonLocalID() string {
	count := map[string]int{}
	best := ""
	for _, m := range g.members {
		if len(m.ents) > 0 {
			id := m.ents[0].PGID
			count[id]++
			if count[id] > count[best] || count[id] == count[best] && id < best {
				best = id
			}
		}
	}
	return best
}

func (g *groupView) findings() []Finding {
	if !g.anyColl && !g.anyP2P {
		return nil
	}
	var out []Finding
	if f, ok := g.missing(false); ok {
		out = append(out, f)
	}
	if f, ok := g.mismatch(); ok {
		out = append(out, f)
	}
	if f, ok := g.stuck(); ok {
		out = append(out, f)
	}
	if len(g.pg.Ranks) == 2 {
		if f, ok := g.missing(true); ok {
			out = append(out, f)
		}
	}
	return out
}

// enqueued returns the last sequence number (collective or p2p) a member
// enqueued, from its entries (each carries both counters) or, without
// entries, from pg_status when the group's entries are all of that kind.
func (g *groupView) enqueued(m member, p2p bool) (int64, bool) {
	if len(m.ents) > 0 {
		var last int64 = -1
		for _, e := range m.ents {
			last = max(last, seqOf(e, p2p))
		}
		return last, true
	}
	pure := p2p && !g.anyColl || !p2p && !g.anyP2P
	return m.status.Enqueued, m.known && pure
}

func seqOf(e model.FREntry, p2p bool) int64 {
	if p2p {
		return e.P2PSeq
	}
	return e.CollSeq
}

// completed returns the last collective a member completed: the one before
// its first entry not completed, else what it enqueued.
func (g *groupView) completed(m member) (int64, bool) {
	for _, e := range m.ents {
		if !e.IsP2P && e.State != "completed" {
			return e.CollSeq - 1, true
		}
	}
	return g.enqueued(m, false)
}

// missing finds the first sequence number some member never enqueued while
// a peer did.
func (g *groupView) missing(p2p bool) (Finding, bool) {
	lo, hi, ok := g.span(func(m member) (int64, bool) { return g.enqueued(m, p2p) })
	if !ok || lo >= hi {
		return Finding{}, false
	}
	f := g.finding(KindMissing, lo+1, p2p)
	for _, m := range g.members {
		if n, ok := g.enqueued(m, p2p); ok && n <= lo {
			f.Ranks = append(f.Ranks, m.rank)
		}
	}
	return f, true
}

// stuck finds the first collective some member has not completed while a
// peer has.
func (g *groupView) stuck() (Finding, bool) {
	lo, hi, ok := g.span(g.completed)
	if !ok || lo >= hi {
		return Finding{}, false
	}
	f := g.finding(KindStuck, lo+1, false)
	f.Ranks, f.Present = nil, nil
	for _, m := range g.members {
		if n, ok := g.completed(m); ok && n <= lo {
			f.Ranks = append(f.Ranks, m.rank)
		} else if ok {
			f.Present = append(f.Present, m.rank)
		}
	}
	return f, true
}

// span returns the lowest and highest value of fn over the members where it
// is known.
func (g *groupView) span(fn func(member) (int64, bool)) (lo, hi int64, ok bool) {
	for _, m := range g.members {
		n, known := fn(m)
		if !known {
			continue
		}
		if !ok {
			lo, hi, ok = n, n, true
		}
		lo, hi = min(lo, n), max(hi, n)
	}
	return lo, hi, ok
}

// finding describes sequence number seq from the entries that hold it: the
// lowest such rank gives op, size and dtype.
func (g *groupView) finding(kind string, seq int64, p2p bool) Finding {
	f := Finding{Group: g.pg.Name, Desc: g.pg.Desc, Kind: kind, P2P: p2p, Seq: seq, Op: "N/A", Size: "N/A", DType: "N/A"}
	for _, m := range g.members {
		e, ok := entryAt(m, seq, p2p)
		if !ok {
			continue
		}
		if len(f.Present) == 0 {
			f.Op, f.Size, f.DType = e.Name, shape(e.InSizes), first(e.InDTypes)
		}
		f.Present = append(f.Present, m.rank)
		if f.Created == 0 || e.Created != 0 && e.Created < f.Created {
			f.Created = e.Created
		}
	}
	return f
}

func entryAt(m member, seq int64, p2p bool) (model.FREntry, bool) {
	if i, ok := m.at[seqKey{p2p, seq}]; ok {
		return m.ents[i], true
	}
	return model.FREntry{}, false
}

func shape(s [][]int64) string {
	if len(s) == 0 {
		return "N/A"
	}
	parts := make([]string, len(s[0]))
	for i, d := range s[0] {
		parts[i] = fmt.Sprint(d)
	}
	return strings.Join(parts, "x")
}

func first(s []string) string {
	if len(s) == 0 {
		return "N/A"
	}
	return s[0]
}

// mismatch finds the first collective whose members disagree on op, dtype
// or (except all_to_all, whose splits differ by design) input size.
func (g *groupView) mismatch() (Finding, bool) {
	seqs := map[int64]bool{}
	for _, m := range g.members {
		for _, e := range m.ents {
			if !e.IsP2P {
				seqs[e.CollSeq] = true
			}
		}
	}
	keys := make([]int64, 0, len(seqs))
	for s := range seqs {
		keys = append(keys, s)
	}
	slices.Sort(keys)
	for _, s := range keys {
		if f, ok := g.mismatchAt(s); ok {
			return f, true
		}
	}
	return Finding{}, false
}

func (g *groupView) mismatchAt(seq int64) (Finding, bool) {
	sigs := map[string][]int32{}
	var order []string
	for _, m := range g.members {
		if e, ok := entryAt(m, seq, false); ok {
			s := signature(e)
			if sigs[s] == nil {
				order = append(order, s)
			}
			sigs[s] = append(sigs[s], m.rank)
		}
	}
	if len(order) < 2 {
		return Finding{}, false
	}
	major := slices.MaxFunc(order, func(a, b string) int { return len(sigs[a]) - len(sigs[b]) })
	f := g.finding(KindMismatch, seq, false)
	var parts []string
	for _, s := range order {
		parts = append(parts, fmt.Sprintf("ranks %v: %s", sigs[s], s))
		if s != major {
			f.Ranks = append(f.Ranks, sigs[s]...)
		}
	}
	slices.Sort(f.Ranks)
	f.Detail = strings.Join(parts, "; ")
	return f, true
}

func signature(e model.FREntry) string {
	size := shape(e.InSizes)
	if strings.Contains(e.Name, "all_to_all") {
		size = "*"
	}
	return fmt.Sprintf("%s %s %s", e.Name, size, first(e.InDTypes))
}
