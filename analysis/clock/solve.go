package clock

import (
	"math"
	"slices"
)

// solve fits x (offsets) so that x[b] − x[a] ≈ d for every edge, with x[ref]
// = 0: a breadth-first start along the edges, then Gauss–Seidel sweeps of
// weighted least squares, reweighted with Huber weights so that a few bad
// pairs do not pull the rest. It returns the ranks reached from ref.
//
// The ranks are numbered (graph) and the sweeps read slices by number, in
// the same order and with the same arithmetic as by rank: a rank not
// reached reads 0, as an absent rank of a map would.
func solve(ref int32, edges []edge) (map[int32]float64, map[int32]bool) {
	g := newGraph(ref, edges)
	g.bfs(edges)
	for range 4 {
		g.sweeps(edges)
		huber(edges, g)
	}
	g.sweeps(edges)
	x := make(map[int32]float64, len(g.ranks))
	reached := make(map[int32]bool, len(g.ranks))
	for v, r := range g.ranks {
		if g.reached[v] {
			x[r] = g.x[v]
			reached[r] = true
		}
	}
	return x, reached
}

// graph is the pair graph by node number: node v is rank ranks[v]
// (ascending); edge i joins nodes ends[i].
type graph struct {
	ranks   []int32
	ends    [][2]int32 // by edge: the nodes of its a and b
	adj     [][]int    // by node: its edges, in edge order
	ref     int32      // ref's node
	x       []float64  // by node
	reached []bool     // by node
}

func newGraph(ref int32, edges []edge) *graph {
	ranks := make([]int32, 0, 2*len(edges)+1)
	ranks = append(ranks, ref)
	for _, e := range edges {
		ranks = append(ranks, e.a, e.b)
	}
	slices.Sort(ranks)
	ranks = slices.Compact(ranks)
	g := &graph{ranks: ranks, ends: make([][2]int32, len(edges)), adj: make([][]int, len(ranks)),
		x: make([]float64, len(ranks)), reached: make([]bool, len(ranks))}
	g.ref = g.node(ref)
	for i, e := range edges {
		a, b := g.node(e.a), g.node(e.b)
		g.ends[i] = [2]int32{a, b}
		g.adj[a] = append(g.adj[a], i)
		g.adj[b] = append(g.adj[b], i)
	}
	return g
}

// node is rank r's number (r is one of ranks).
func (g *graph) node(r int32) int32 {
	v, _ := slices.BinarySearch(g.ranks, r)
	return int32(v)
}

// bfs sets x of every node reached from ref along the edges.
func (g *graph) bfs(edges []edge) {
	g.reached[g.ref] = true
	queue := []int32{g.ref}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, i := range g.adj[u] {
			v, d := g.other(edges, i, u)
			if !g.reached[v] {
				g.reached[v] = true
				g.x[v] = g.x[u] + d
				queue = append(queue, v)
			}
		}
	}
}

// other returns the far end of edge i seen from node u and the offset step
// towards it.
func (g *graph) other(edges []edge, i int, u int32) (int32, float64) {
	if g.ends[i][0] == u {
		return g.ends[i][1], edges[i].d
	}
	return g.ends[i][0], -edges[i].d
}

// sweeps runs Gauss–Seidel until the largest change is under 0.5 ns, over
// the reached nodes but ref, by rank (node numbers ascend with ranks).
func (g *graph) sweeps(edges []edge) {
	nodes := make([]int32, 0, len(g.ranks))
	for v := range g.ranks {
		if g.reached[v] && int32(v) != g.ref {
			nodes = append(nodes, int32(v))
		}
	}
	for range 500 {
		if g.sweep(nodes, edges) < 0.5 {
			return
		}
	}
}

func (g *graph) sweep(nodes []int32, edges []edge) float64 {
	var worst float64
	for _, v := range nodes {
		var num, den float64
		for _, i := range g.adj[v] {
			u, d := g.other(edges, i, v)
			num += edges[i].weight * (g.x[u] - d)
			den += edges[i].weight
		}
		if den == 0 {
			continue
		}
		nx := num / den
		worst = max(worst, math.Abs(nx-g.x[v]))
		g.x[v] = nx
	}
	return worst
}

// huber reweights edges by their residual: full weight within 1.345 robust
// standard deviations (floor 1 µs), inversely proportional beyond.
func huber(edges []edge, g *graph) {
	res := make([]float64, len(edges))
	for i, e := range edges {
		res[i] = math.Abs(g.x[g.ends[i][1]] - g.x[g.ends[i][0]] - e.d)
	}
	sorted := slices.Clone(res)
	slices.Sort(sorted)
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
