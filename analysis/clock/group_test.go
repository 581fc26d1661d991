package clock

import (
	"encoding/binary"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// refGroups numbers keys the way MatchStats did before grouper: the
// order-keyed ones counted per (key, rank) in one map, every key looked
// up in another. ranks[n] is key n's rank.
func refGroups(keys []key, ranks []int32) (gid []int32, byID []key) {
	type rankKey struct {
		k    key
		rank int32
	}
	counts := map[rankKey]int64{}
	ids := map[key]int32{}
	for n, k := range keys {
		if k.seq == orderedSeq {
			c := rankKey{key{comm: k.comm, op: k.op, a: k.a, b: k.b}, ranks[n]}
			k.seq = -2 - counts[c]
			counts[c]++
		}
		g, ok := ids[k]
		if !ok {
			g = int32(len(byID))
			ids[k] = g
			byID = append(byID, k)
		}
		gid = append(gid, g)
	}
	return gid, byID
}

// keysFrom decodes fuzz bytes into keys rank by rank (ranks ascending, as
// byEnd hands them out): 4 bytes a key, few communicators, ops and peers
// so that keys repeat, about half order-keyed.
func keysFrom(data []byte) ([]key, []int32) {
	var keys []key
	var ranks []int32
	rank := int32(0)
	for len(data) >= 4 {
		b := data[:4]
		data = data[4:]
		if b[0]&0x80 != 0 {
			rank += int32(b[0]&3) + 1
		}
		k := key{comm: int32(b[1] & 3), op: model.Op(b[1] >> 2 & 3), a: -1, b: -1, seq: orderedSeq}
		switch {
		case b[2]&1 == 1: // p2p
			k.op, k.a, k.b = model.OpSend, int32(b[2]>>1&3), int32(b[2]>>3&3)
		case b[2]&2 == 2: // a given seq, a few far out
			k.seq = int64(b[3] & 7)
			if b[3]&0x80 != 0 {
				k.seq = int64(b[3]) << 4
			}
		}
		keys = append(keys, k)
		ranks = append(ranks, rank)
	}
	return keys, ranks
}

// checkGroups holds grouper to refGroups with no seq table (every seq
// key in the map), a table that runs out of room part way (slots moved to
// the map), and one with room for all.
func checkGroups(t *testing.T, keys []key, ranks []int32) {
	t.Helper()
	want, wantKeys := refGroups(keys, ranks)
	tr := &model.Trace{Comms: make([]model.Communicator, 4)}
	for _, budget := range []int{-1, 0, 9, 40, 1 << 20} {
		g := newGrouper(tr, 0)
		g.seqs.budget = budget
		if budget < 0 {
			g = &grouper{}
		}
		got := make([]int32, len(keys))
		for n, k := range keys {
			got[n] = g.group(k, ranks[n])
		}
		if !slices.Equal(got, want) || !slices.Equal(g.keys, wantKeys) {
			t.Fatalf("grouper (seq table budget %d): groups %v keys %v, want %v %v", budget, got, g.keys, want, wantKeys)
		}
	}
}

func TestGrouperMatchesMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		b := make([]byte, 4*r.IntN(400))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		keys, ranks := keysFrom(b)
		checkGroups(t, keys, ranks)
	}
}

func FuzzGrouper(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x80, 0, 0, 0})
	f.Add([]byte{0, 1, 2, 3, 0, 1, 2, 3, 0x81, 1, 2, 3, 0, 5, 1, 0, 0x80, 5, 1, 0, 0x80, 5, 9, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		keys, ranks := keysFrom(data)
		checkGroups(t, keys, ranks)
	})
}

// refSolve is solve as it was, on maps by rank: the sweeps of the numbered
// graph must give the same offsets, bit for bit.
func refSolve(ref int32, edges []edge) (map[int32]float64, map[int32]bool) {
	adj := map[int32][]int{}
	for i, e := range edges {
		adj[e.a] = append(adj[e.a], i)
		adj[e.b] = append(adj[e.b], i)
	}
	x := map[int32]float64{ref: 0}
	queue := []int32{ref}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, i := range adj[u] {
			v, d := refOther(edges[i], u)
			if _, seen := x[v]; !seen {
				x[v] = x[u] + d
				queue = append(queue, v)
			}
		}
	}
	reached := map[int32]bool{}
	for r := range x {
		reached[r] = true
	}
	sweeps := func() {
		nodes := slices.Sorted(maps.Keys(x))
		nodes = slices.DeleteFunc(nodes, func(r int32) bool { return r == ref })
		for range 500 {
			var worst float64
			for _, v := range nodes {
				var num, den float64
				for _, i := range adj[v] {
					u, d := refOther(edges[i], v)
					num += edges[i].weight * (x[u] - d)
					den += edges[i].weight
				}
				if den == 0 {
					continue
				}
				nx := num / den
				worst = max(worst, math.Abs(nx-x[v]))
				x[v] = nx
			}
			if worst < 0.5 {
				return
			}
		}
	}
	huberRef := func() {
		res := make([]float64, len(edges))
		for i, e := range edges {
			res[i] = math.Abs(x[e.b] - x[e.a] - e.d)
		}
		sorted := slices.Sorted(slices.Values(res))
		if len(sorted) == 0 {
			return
		}
		scale := max(1.4826*sorted[len(sorted)/2], 1000)
		for i := range edges {
			w := float64(edges[i].n)
			if r := res[i]; r > 1.345*scale {
				w *= 1.345 * scale / r
			}
			edges[i].weight = w
		}
	}
	for range 4 {
		sweeps()
		huberRef()
	}
	sweeps()
	return x, reached
}

func refOther(e edge, u int32) (int32, float64) {
	if e.a == u {
		return e.b, e.d
	}
	return e.a, -e.d
}

// edgesFrom decodes fuzz bytes into pair edges among a few sparse ranks
// (8 bytes an edge), some far off the rest, some ranks not joined to ref.
func edgesFrom(data []byte) []edge {
	var out []edge
	for len(data) >= 8 {
		b := data[:8]
		data = data[8:]
		a, c := int32(b[0]&15)*3, int32(b[1]&15)*3
		if a == c {
			continue
		}
		d := float64(int16(binary.LittleEndian.Uint16(b[2:]))) * 37
		if b[4]&1 == 1 {
			d *= 1000 // a bad pair
		}
		n := int(b[5]&7) + 1
		out = append(out, edge{a: min(a, c), b: max(a, c), d: d, n: n, weight: float64(n)})
	}
	return out
}

func checkSolve(t *testing.T, ref int32, edges []edge) {
	t.Helper()
	e2 := slices.Clone(edges)
	x, reached := solve(ref, edges)
	wx, wreached := refSolve(ref, e2)
	if !maps.Equal(reached, wreached) {
		t.Fatalf("reached %v, want %v", reached, wreached)
	}
	for r, v := range wx {
		if math.Float64bits(x[r]) != math.Float64bits(v) {
			t.Fatalf("rank %d: offset %v, want %v", r, x[r], v)
		}
	}
	if len(x) != len(wx) || !slices.Equal(edges, e2) {
		t.Fatalf("%d offsets, want %d; edges' weights differ: %v vs %v", len(x), len(wx), edges, e2)
	}
}

func TestSolveMatchesMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		b := make([]byte, 8*r.IntN(60))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		checkSolve(t, int32(r.IntN(4))*3, edgesFrom(b))
	}
}

func FuzzSolve(f *testing.F) {
	f.Add(byte(0), []byte{})
	f.Add(byte(0), []byte{0, 1, 10, 0, 0, 2, 0, 0, 1, 2, 20, 0, 1, 1, 0, 0, 5, 6, 1, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, ref byte, data []byte) { checkSolve(t, int32(ref&15)*3, edgesFrom(data)) })
}
