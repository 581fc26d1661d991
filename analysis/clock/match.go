package clock

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/par"
	"github.com/tpptrace/tpptrace/model"
)

// Stats counts what Match could not use.
type Stats struct {
	Kernels   int // communication kernels with a communicator
	NoComm    int // communication kernels without a communicator (not matched)
	NoPeer    int // p2p kernels whose peer is unknown and that no common end paired (not matched)
	ByEnd     int // sends and receives without a peer paired by their common end (see pairLoose)
	Dropped   int // instances dropped for a missing or doubled member
	Instances int // instances kept
}

// key identifies one instance: the communicator, then either the sequence
// number (seq >= 0, a, b unused) or the op (or p2p pair a→b) and the order k.
type key struct {
	comm int32
	op   model.Op
	a, b int32
	seq  int64
}

// orderedSeq marks, in the key instanceKey returns, a key whose seq is
// its order among the rank's kernels of the same family (grouper.group
// sets it); given sequence numbers are ≥ 0 and order-based ones ≤ −2.
const orderedSeq = -1

// MatchStats is Match that also reports what it dropped.
func MatchStats(t *model.Trace) ([]Instance, Stats) {
	var st Stats
	idx := byEnd(t)
	gid := make([]int32, len(idx)) // instance group of idx[n], -1 when none
	g := newGrouper(t, len(idx))
	ls := &looseSet{}
	for n, i := range idx {
		gid[n] = -1
		k, ok := instanceKey(t, int(i), ls, &st)
		if !ok {
			continue
		}
		gid[n] = g.group(k, t.Events.Rank[i])
	}
	inst := collect(t, g.keys, groupRows(idx, gid, len(g.keys)), &st)
	inst = append(inst, pairLoose(t, ls, inst, &st)...)
	st.Instances = len(inst)
	return inst, st
}

// family is a key without its seq: the communicator and the op, or the
// p2p pair and its op. Its fields leave no padding, so a map hashes it in
// one pass.
type family struct {
	comm, op, a, b int32
}

// seqKey is a collective's communicator, op and given sequence number
// (such a key's a and b are −1), without padding.
type seqKey struct {
	comm, op int32
	seq      int64
}

// rankCount is one rank's count of order-keyed kernels of a family.
type rankCount struct {
	rank int32
	used bool
	n    int64
}

// grouper numbers instance keys in first-seen order with at most one map
// lookup per kernel: of an order-keyed key the family is looked up, and
// the key is the family's n-th group (n: the kernel's position among its
// rank's kernels of the family); a sequence-keyed one is read from a table
// by communicator, op and seq (seqTable) while its seqs stay small, else
// looked up by value (seqKey). The kernels come rank by rank (byEnd), so a
// family's count belongs to the rank that last touched it.
type grouper struct {
	fams    map[family]int32
	count   []rankCount // by family id
	ordered [][]int32   // by family id: the group of its n-th order-keyed key
	bySeq   map[seqKey]int32
	seqs    seqTable
	keys    []key // by group id
}

// seqTable holds, by communicator and op, the group id + 1 of each seq
// (0: none yet), in slices grown as the seqs need while their slots stay
// within budget. A communicator and op whose seqs outgrow it moves to
// grouper.bySeq, entries and all, for good: every key of it is then in
// the map, none in the table.
type seqTable struct {
	bySlot [][]int32 // comm*opSlots + op
	mapped []bool    // by slot: moved to the map
	budget int       // slots left
}

// opSlots is the ops' room per communicator in seqTable (model.Op < 16).
const opSlots = 16

// newGrouper is a grouper for the given number of kernels of t: a seq
// table with room for four slots a kernel.
func newGrouper(t *model.Trace, kernels int) *grouper {
	n := len(t.Comms) * opSlots
	return &grouper{seqs: seqTable{bySlot: make([][]int32, n), mapped: make([]bool, n), budget: 4*kernels + 1024}}
}

// seqSlot returns the table's entry for key k (a given seq), nil when k's
// communicator and op are in the map (or out of the table's reach).
func (g *grouper) seqSlot(k key) *int32 {
	s := &g.seqs
	i := int(k.comm)*opSlots + int(k.op)
	if int(k.op) >= opSlots || i >= len(s.bySlot) || s.mapped[i] {
		return nil
	}
	v := s.bySlot[i]
	if k.seq >= int64(len(v)) {
		if k.seq >= int64(s.budget) || max(int(k.seq)+1, 2*len(v))-len(v) > s.budget {
			g.toMap(k, i)
			return nil
		}
		grow := max(int(k.seq)+1, 2*len(v)) - len(v)
		s.budget -= grow
		v = append(v, make([]int32, grow)...)
		s.bySlot[i] = v
	}
	return &v[k.seq]
}

// toMap moves slot i (k's communicator and op) of the table to bySeq.
func (g *grouper) toMap(k key, i int) {
	if g.bySeq == nil {
		g.bySeq = map[seqKey]int32{}
	}
	for seq, id := range g.seqs.bySlot[i] {
		if id > 0 {
			g.bySeq[seqKey{comm: k.comm, op: int32(k.op), seq: int64(seq)}] = id - 1
		}
	}
	g.seqs.bySlot[i], g.seqs.mapped[i] = nil, true
}

// group returns the group id of key k (seq orderedSeq: order-keyed) of a
// kernel on rank, the next id when the key is new.
func (g *grouper) group(k key, rank int32) int32 {
	if k.seq != orderedSeq {
		return g.seqGroup(k)
	}
	f := g.family(k)
	c := &g.count[f]
	if !c.used || c.rank != rank {
		*c = rankCount{rank: rank, used: true}
	}
	n := c.n
	c.n++
	k.seq = -2 - n // negative: order-based, kept apart from given sequence numbers
	if n < int64(len(g.ordered[f])) {
		return g.ordered[f][n]
	}
	id := g.add(k)
	g.ordered[f] = append(g.ordered[f], id)
	return id
}

// family returns the id of k's family, the next id when it is new.
func (g *grouper) family(k key) int32 {
	fk := family{comm: k.comm, op: int32(k.op), a: k.a, b: k.b}
	f, ok := g.fams[fk]
	if !ok {
		if g.fams == nil {
			g.fams = map[family]int32{}
		}
		f = int32(len(g.count))
		g.fams[fk] = f
		g.count = append(g.count, rankCount{})
		g.ordered = append(g.ordered, nil)
	}
	return f
}

// seqGroup is group for a key with a given sequence number.
func (g *grouper) seqGroup(k key) int32 {
	if p := g.seqSlot(k); p != nil {
		if *p == 0 {
			*p = g.add(k) + 1
		}
		return *p - 1
	}
	sk := seqKey{comm: k.comm, op: int32(k.op), seq: k.seq}
	if id, ok := g.bySeq[sk]; ok {
		return id
	}
	if g.bySeq == nil {
		g.bySeq = map[seqKey]int32{}
	}
	id := g.add(k)
	g.bySeq[sk] = id
	return id
}

// add appends a new group of key k and returns its id.
func (g *grouper) add(k key) int32 {
	g.keys = append(g.keys, k)
	return int32(len(g.keys) - 1)
}

// byEnd lists the communication kernels by rank, then end: ends coincide
// across members, so the end order is the same on every member while the
// start order is not (a recv kernel may start long before an earlier one
// on another stream ends).
func byEnd(t *model.Trace) []int32 {
	ev := &t.Events
	n, rows := 0, ev.Len()
	for i := ev.NextKind(model.KindComm, 0, rows); i < rows; i = ev.NextKind(model.KindComm, i+1, rows) {
		if ev.Coll[i] >= 0 {
			n++
		}
	}
	idx := make([]int32, 0, n)
	for i := ev.NextKind(model.KindComm, 0, rows); i < rows; i = ev.NextKind(model.KindComm, i+1, rows) {
		if ev.Coll[i] >= 0 {
			idx = append(idx, int32(i))
		}
	}
	byRankEnd := func(a, b int32) int {
		return cmp.Or(cmp.Compare(ev.Rank[a], ev.Rank[b]), cmp.Compare(ev.Start[a]+ev.Dur[a], ev.Start[b]+ev.Dur[b]))
	}
	runs := rankRuns(ev.Rank, idx)
	if runs == nil {
		slices.SortStableFunc(idx, byRankEnd)
		return idx
	}
	par.Blocks(len(runs)-1, 1, func(lo, hi int) { // rows already by rank: each rank's run sorted apart, the same order
		var buf []endRow
		for r := lo; r < hi; r++ {
			buf = sortByEnd(ev, idx[runs[r]:runs[r+1]], buf)
		}
	})
	return idx
}

// endRow is a row and its end, for sortByEnd.
type endRow struct {
	end int64
	row int32
}

// sortByEnd sorts rows (of one rank) by end, stably, through buf (scratch,
// returned): the ends read once, not per comparison; already sorted rows
// (one stream) are left as they are.
func sortByEnd(ev *model.Events, rows []int32, buf []endRow) []endRow {
	buf = buf[:0]
	sorted := true
	for k, i := range rows {
		buf = append(buf, endRow{ev.Start[i] + ev.Dur[i], i})
		sorted = sorted && (k == 0 || buf[k-1].end <= buf[k].end)
	}
	if sorted {
		return buf
	}
	slices.SortStableFunc(buf, func(a, b endRow) int { return cmp.Compare(a.end, b.end) })
	for k := range buf {
		rows[k] = buf[k].row
	}
	return buf
}

// rankRuns returns the bounds of idx's runs of equal rank (run r is
// idx[runs[r]:runs[r+1]]), or nil when idx is not in rank order.
func rankRuns(rank []int32, idx []int32) []int {
	runs := []int{0}
	for k := 1; k < len(idx); k++ {
		switch a, b := rank[idx[k-1]], rank[idx[k]]; {
		case b < a:
			return nil
		case b > a:
			runs = append(runs, k)
		}
	}
	return append(runs, len(idx))
}

// groups holds the rows of every instance group in one array: group g's
// rows are rows[start[g]:start[g+1]], in byEnd order, so by rank.
type groups struct {
	start []int32
	rows  []int32
}

// groupRows gathers idx[n] into group gid[n] (none when -1), keeping the
// order of idx within each group.
func groupRows(idx, gid []int32, n int) groups {
	g := groups{start: make([]int32, n+1)}
	for _, k := range gid {
		if k >= 0 {
			g.start[k+1]++
		}
	}
	for k := range n {
		g.start[k+1] += g.start[k]
	}
	g.rows = make([]int32, g.start[n])
	next := slices.Clone(g.start[:n])
	for j, k := range gid {
		if k >= 0 {
			g.rows[next[k]] = idx[j]
			next[k]++
		}
	}
	return g
}

// of returns group k's rows.
func (g groups) of(k int) []int32 { return g.rows[g.start[k]:g.start[k+1]:g.start[k+1]] }

// instanceKey returns the instance key of event i, counting its position
// within (rank, key-without-seq) when no sequence number is known. Sends
// and receives that name no peer among more than two members go to ls.
func instanceKey(t *model.Trace, i int, ls *looseSet, st *Stats) (key, bool) {
	c := t.Events.Coll[i]
	if t.Events.Kind[i] != model.KindComm || c < 0 || int(c) >= t.Colls.Len() {
		return key{}, false
	}
	comm := t.Colls.Comm[c]
	if comm < 0 || int(comm) >= len(t.Comms) {
		st.NoComm++
		return key{}, false
	}
	st.Kernels++
	op := t.Colls.Op[c]
	if !op.PointToPoint() {
		return collKey(t, i, comm, op), true
	}
	if isLoose(t, i, comm, op) {
		ls.add(t, i, comm, op)
		return key{}, false
	}
	return p2pKey(t, i, comm, op, st)
}

func collKey(t *model.Trace, i int, comm int32, op model.Op) key {
	if s := t.Colls.Seq[t.Events.Coll[i]]; s >= 0 {
		return key{comm: comm, op: op, a: -1, b: -1, seq: s} // op too: NCCL's coll_sn counts per operation
	}
	return key{comm: comm, op: op, a: -1, b: -1, seq: orderedSeq}
}

// p2pKey keys a send/recv by its directed pair (src→dst) and order; an
// undirected send_recv kernel (batched p2p) by its unordered pair.
func p2pKey(t *model.Trace, i int, comm int32, op model.Op, st *Stats) (key, bool) {
	rank := t.Events.Rank[i]
	peer := peerOf(t, i, comm)
	if peer < 0 || peer == rank {
		st.NoPeer++
		return key{}, false
	}
	k := key{comm: comm, op: model.OpSend, a: rank, b: peer, seq: orderedSeq}
	switch op {
	case model.OpRecv:
		k.a, k.b = peer, rank
	case model.OpSendRecv:
		k.op, k.a, k.b = model.OpSendRecv, min(rank, peer), max(rank, peer)
	}
	return k, true
}

// peerOf is the recorded peer, else the other member of a 2-member communicator.
func peerOf(t *model.Trace, i int, comm int32) int32 {
	if p := t.Colls.Peer[t.Events.Coll[i]]; p >= 0 {
		return p
	}
	m := t.Comms[comm].Members
	if len(m) != 2 {
		return -1
	}
	if m[0] == t.Events.Rank[i] {
		return m[1]
	}
	return m[0]
}
