package whatif

import (
	"fmt"
)

// p2pPeer maps a PP kind to its peer kind and stage offset.
var p2pPeer = map[string]struct {
	kind string
	off  int32
}{FwdSend: {FwdRecv, 1}, BwdSend: {BwdRecv, -1}}

// p2pGroups pairs the v-th valid send of stage s with the v-th valid recv
// of its peer stage; no-ops and unpaired ops are groups of one.
func (b *tableBuilder) p2pGroups() {
	valid := map[[2]int32][]int{} // (stage, type) -> valid rows in order
	var all []int
	for s := range b.pp {
		for _, r := range b.of(s, FwdSend, FwdRecv, BwdSend, BwdRecv) {
			all = append(all, r)
			if !b.noop[r] {
				k := [2]int32{s, b.t.OpType[r]}
				valid[k] = append(valid[k], r)
			}
		}
	}
	paired := map[int]bool{}
	for s := range b.pp {
		for kind, p := range p2pPeer {
			b.pairKind(valid, s, kind, p.kind, (s+p.off+b.pp)%b.pp, paired)
		}
	}
	for _, r := range all {
		if !paired[r] {
			b.tm.groups = append(b.tm.groups, tgroup{members: []opKey{b.key(r)}})
		}
	}
}

func (b *tableBuilder) pairKind(valid map[[2]int32][]int, s int32, kind, peer string, ps int32, paired map[int]bool) {
	k, ok1 := b.types[kind]
	pk, ok2 := b.types[peer]
	if !ok1 || !ok2 {
		return
	}
	sends, recvs := valid[[2]int32{s, k}], valid[[2]int32{ps, pk}]
	for v := range min(len(sends), len(recvs)) {
		b.tm.groups = append(b.tm.groups, tgroup{members: []opKey{b.key(sends[v]), b.key(recvs[v])}})
		paired[sends[v]], paired[recvs[v]] = true, true
	}
}

// syncGroups adds the DP collectives (across the DP replicas of a stage),
// the embedding all-reduce (first and last stage of one replica) and the
// clip all-reduce (everything).
func (b *tableBuilder) syncGroups() {
	if b.dp > 1 {
		for s := range b.pp {
			for _, r := range b.of(s, ParamsAG, GradsRS, SeparateAR) {
				b.tm.groups = append(b.tm.groups, tgroup{members: []opKey{b.key(r)}, dpSync: true})
			}
		}
	}
	var emb []opKey
	for _, s := range []int32{0, b.pp - 1} {
		if k, ok := b.named(s, EmbeddingAR, 0); ok && b.has(k) && (len(emb) == 0 || emb[0] != k) {
			emb = append(emb, k)
		}
	}
	if len(emb) > 0 {
		b.tm.groups = append(b.tm.groups, tgroup{members: emb})
	}
	var clip []opKey
	for s := range b.pp {
		if k, ok := b.named(s, Clip, 0); ok && b.has(k) {
			clip = append(clip, k)
		}
	}
	if len(clip) > 0 {
		b.tm.groups = append(b.tm.groups, tgroup{members: clip, dpSync: true})
	}
}

// tableAxis is the communicator axis of the op table's communications.
var tableAxis = map[string]string{
	FwdSend: "PP", FwdRecv: "PP", BwdSend: "PP", BwdRecv: "PP",
	ParamsAG: "DP", GradsRS: "DP", SeparateAR: "DP",
}

// instKey names an op of the table: step index, DP replica and template key.
type instKey struct {
	step, dp int32
	k        opKey
}

// instantiate applies the template to every (step, DP replica) of the table.
func (b *tableBuilder) instantiate() (*Graph, error) {
	t := b.t
	g := &Graph{}
	for _, n := range t.OpTypes {
		g.addType(n, isComm(n), tableAxis[n])
	}
	stepIdx, workerIdx := map[int64]int32{}, map[[2]int32]int32{}
	ids := make(map[instKey]int32, t.Len())
	for i := range t.Len() {
		si := index(stepIdx, t.Step[i], func() { g.Steps = append(g.Steps, t.Step[i]) })
		wi := index(workerIdx, [2]int32{t.DP[i], t.Stage[i]}, func() {
			g.Workers = append(g.Workers, Worker{Rank: t.Rank[i], DP: t.DP[i], Stage: t.Stage[i]})
		})
		id := g.AddOp(t.OpType[i], wi, si, t.Start[i], t.Start[i]+t.Dur[i])
		k := instKey{si, t.DP[i], b.key(i)}
		if _, dup := ids[k]; dup {
			return nil, fmt.Errorf("row %d: step %d dp %d stage %d %s seq %d appears twice",
				i, t.Step[i], t.DP[i], t.Stage[i], t.OpTypes[t.OpType[i]], t.Seq[i])
		}
		ids[k] = id
	}
	b.instEdges(g, ids)
	b.instGroups(g, ids)
	if err := g.Finish(); err != nil {
		return nil, err
	}
	for i := range t.Len() {
		g.Dur[i] = t.Dur[i]
		g.Xfer[i] = round32(g.Xfer[i])
		g.Delay[i] = round32(g.Delay[i])
	}
	return g, nil
}

// round32 rounds to float32 precision: the published figures store
// transfers and delays as float32.
func round32(v float64) float64 { return float64(float32(v)) }

func index[K comparable](m map[K]int32, k K, add func()) int32 {
	if i, ok := m[k]; ok {
		return i
	}
	m[k] = int32(len(m))
	add()
	return m[k]
}

func (b *tableBuilder) lookup(ids map[instKey]int32, step, dp int32, k opKey) int32 {
	if id, ok := ids[instKey{step, dp, k}]; ok {
		return id
	}
	return -1
}

func (b *tableBuilder) instEdges(g *Graph, ids map[instKey]int32) {
	for si := range int32(len(g.Steps)) {
		for d := range b.dp {
			for _, e := range b.tm.edges {
				g.AddEdge(b.lookup(ids, si, d, e[0]), b.lookup(ids, si, d, e[1]))
			}
		}
	}
}

func (b *tableBuilder) instGroups(g *Graph, ids map[instKey]int32) {
	for si := range int32(len(g.Steps)) {
		for _, tg := range b.tm.groups {
			if tg.dpSync {
				var ms []int32
				for d := range b.dp {
					ms = append(ms, b.members(ids, si, d, tg.members)...)
				}
				g.AddGroup(ms...)
				continue
			}
			for d := range b.dp {
				g.AddGroup(b.members(ids, si, d, tg.members)...)
			}
		}
	}
}

func (b *tableBuilder) members(ids map[instKey]int32, si, d int32, ks []opKey) []int32 {
	out := make([]int32, 0, len(ks))
	for _, k := range ks {
		out = append(out, b.lookup(ids, si, d, k))
	}
	return out
}
