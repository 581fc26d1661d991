package whatif

import (
	"math"
	"slices"
)

// p2pDelta is the chunk offset of each PP kind's peer.
var p2pDelta = map[string]int32{FwdSend: 1, FwdRecv: -1, BwdSend: -1, BwdRecv: 1}

// matchP2P pairs each PP send/recv of stage s with the compute it serves
// and adds the compute↔comm edges: compute k → send k; recv k → compute k
// and compute k−1 → recv k (same direction). Sends ending before the first
// compute and recvs starting after the last are no-ops.
func (b *tableBuilder) matchP2P(s int32, comp []int) {
	for _, dir := range []string{"forward", "backward"} {
		tc := b.filter(comp, dir+"-compute")
		if len(tc) == 0 {
			continue
		}
		for _, sr := range []string{"send", "recv"} {
			b.matchKind(s, dir, sr, tc)
		}
	}
}

func (b *tableBuilder) filter(rows []int, name string) []int {
	var out []int
	for _, r := range rows {
		if b.t.OpTypes[b.t.OpType[r]] == name {
			out = append(out, r)
		}
	}
	return out
}

func (b *tableBuilder) matchKind(s int32, dir, sr string, tc []int) {
	t := b.t
	kind := dir + "-" + sr
	valid, bySeq := b.p2pWindow(sr, tc)
	comms := b.of(s, kind)
	cnt := 0
	for _, r := range comms {
		b.noop[r] = true
		if valid(r) {
			cnt++
		}
	}
	id := int32(0)
	if sr == "recv" && cnt+1 == len(tc) {
		id = 1
	}
	for _, r := range comms {
		c, ok := bySeq[id]
		if !valid(r) || !ok {
			continue
		}
		peer := t.GMC[c] + p2pDelta[kind]
		b.noop[r] = peer < 0 || peer >= b.vpp*b.pp
		b.computeEdges(sr, r, c)
		id++
	}
}

// p2pWindow returns whether a send/recv row belongs to the step's computes
// tc (a recv starting by the last compute's start, a send ending after the
// first compute's end), and tc by seq.
func (b *tableBuilder) p2pWindow(sr string, tc []int) (func(int) bool, map[int32]int) {
	t := b.t
	lastStart, firstEnd := math.Inf(-1), math.Inf(1)
	bySeq := map[int32]int{}
	for _, r := range tc {
		lastStart = max(lastStart, t.Start[r])
		firstEnd = min(firstEnd, t.Start[r]+t.Dur[r])
		bySeq[t.Seq[r]] = r
	}
	return func(r int) bool {
		if sr == "recv" {
			return t.Start[r] <= lastStart+p2pEps
		}
		return t.Start[r]+t.Dur[r] >= firstEnd-p2pEps
	}, bySeq
}

func (b *tableBuilder) computeEdges(sr string, comm, comp int) {
	ck, mk := b.key(comp), b.key(comm)
	if sr == "send" {
		b.edge(ck, mk)
		return
	}
	b.edge(mk, ck)
	if ck.seq > 0 {
		b.edge(opKey{ck.stage, ck.typ, ck.seq - 1}, mk)
	}
}

// firstBackward makes the first backward send/recv wait for the compute
// two places before the first backward compute.
func (b *tableBuilder) firstBackward(s int32, comp []int) {
	i := slices.IndexFunc(comp, func(r int) bool { return b.t.OpTypes[b.t.OpType[r]] == BwdCompute })
	if i < 2 {
		return
	}
	for _, k := range []string{BwdRecv, BwdSend} {
		if rs := b.of(s, k); len(rs) > 0 {
			if key, ok := b.named(s, k, 0); ok {
				b.edge(b.key(comp[i-2]), key)
			}
		}
	}
}

// dpDeps chains the DP collectives of stage s and makes the first forward
// of each chunk wait for the chunk's last params all-gather (and, when the
// DP sync overlaps, each chunk's first reduce-scatter wait for its last
// backward).
func (b *tableBuilder) dpDeps(s int32, comp []int) {
	b.chain(b.of(s, ParamsAG, GradsRS))
	t := b.t
	ag := b.of(s, ParamsAG)
	slices.SortFunc(ag, func(x, y int) int { return int(t.Seq[y] - t.Seq[x]) })
	done := map[int32]bool{}
	for _, r := range ag {
		if done[t.MC[r]] {
			continue
		}
		done[t.MC[r]] = true
		if f := b.extreme(comp, FwdCompute, t.MC[r], true); f >= 0 {
			b.edge(b.key(r), b.key(f))
		}
	}
	if b.ovlp {
		b.overlapRS(s, comp)
	}
}

func (b *tableBuilder) overlapRS(s int32, comp []int) {
	t := b.t
	rs := b.of(s, GradsRS)
	slices.SortFunc(rs, func(x, y int) int { return int(t.Seq[x] - t.Seq[y]) })
	done := map[int32]bool{}
	for _, r := range rs {
		if done[t.MC[r]] {
			continue
		}
		done[t.MC[r]] = true
		if l := b.extreme(comp, BwdCompute, t.MC[r], false); l >= 0 {
			b.edge(b.key(l), b.key(r))
		}
	}
}

// extreme returns the earliest-starting (first) or latest-ending compute
// of type name and chunk mc, -1 when none.
func (b *tableBuilder) extreme(comp []int, name string, mc int32, first bool) int {
	t := b.t
	best, bestT := -1, 0.0
	for _, r := range comp {
		if t.OpTypes[t.OpType[r]] != name || t.MC[r] != mc {
			continue
		}
		v := t.Start[r]
		if !first {
			v = -(t.Start[r] + t.Dur[r])
		}
		if best < 0 || v < bestT {
			best, bestT = r, v
		}
	}
	return best
}

// tail chains the step's tail: last compute → gc → layernorm all-reduce →
// embedding all-reduce → reduce-scatters (DP sync not overlapped) → clip →
// optimizer.
func (b *tableBuilder) tail(s int32, comp []int) {
	gc, ok := b.named(s, GC, 0)
	if !ok || len(comp) == 0 {
		return
	}
	b.edge(b.key(b.lastEnding(comp)), gc)
	prev := []opKey{gc}
	if rs := b.of(s, GradsRS); b.dp > 1 && b.ovlp && len(rs) > 0 {
		prev = append(prev, b.key(rs[len(rs)-1]))
	}
	for _, k := range b.tailChain(s) {
		for _, p := range prev {
			b.edge(p, k)
		}
		prev = []opKey{k}
	}
}

func (b *tableBuilder) lastEnding(rows []int) int {
	t := b.t
	last := rows[0]
	for _, r := range rows {
		if t.Start[r]+t.Dur[r] > t.Start[last]+t.Dur[last] {
			last = r
		}
	}
	return last
}

// tailChain lists the tail after gc on stage s, skipping absent ops.
func (b *tableBuilder) tailChain(s int32) []opKey {
	var chain []opKey
	add := func(name string, seq int32) {
		if k, ok := b.named(s, name, seq); ok && b.has(k) {
			chain = append(chain, k)
		}
	}
	add(LayernormAR, 0)
	if s == 0 || s == b.pp-1 {
		add(EmbeddingAR, 0)
	}
	switch {
	case b.dp <= 1:
	case b.ovlp:
		add(SeparateAR, 0)
	default:
		for i := range int32(len(b.of(s, GradsRS))) {
			add(GradsRS, i)
		}
	}
	add(Clip, 0)
	add(Optimizer, 0)
	return chain
}

// has reports whether the template step holds key k.
func (b *tableBuilder) has(k opKey) bool {
	for _, r := range b.rows[k.stage] {
		if b.key(r) == k {
			return true
		}
	}
	return false
}
