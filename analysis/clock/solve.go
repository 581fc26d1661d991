package clock

import (
	"math"
	"slices"
)

// solve fits x (offsets) so that x[b] − x[a] ≈ d for every edge, with x[ref]
// = 0: a breadth-first start along the edges, then Gauss–Seidel sweeps of
// weighted least squares, reweighted with Huber weights so that a few bad
// pairs do not pull the rest. It returns the ranks reached from ref.
func solve(ref int32, edges []edge) (map[int32]float64, map[int32]bool) {
	adj := map[int32][]int{}
	for i, e := range edges {
		adj[e.a] = append(adj[e.a], i)
		adj[e.b] = append(adj[e.b], i)
	}
	x := bfs(ref, edges, adj)
	reached := map[int32]bool{}
	for r := range x {
		reached[r] = true
	}
	for range 4 {
		sweeps(ref, edges, adj, x)
		huber(edges, x)
	}
	sweeps(ref, edges, adj, x)
	return x, reached
}

func bfs(ref int32, edges []edge, adj map[int32][]int) map[int32]float64 {
	x := map[int32]float64{ref: 0}
	queue := []int32{ref}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, i := range adj[u] {
			v, d := other(edges[i], u)
			if _, seen := x[v]; !seen {
				x[v] = x[u] + d
				queue = append(queue, v)
			}
		}
	}
	return x
}

// other returns the far end of e seen from u and the offset step towards it.
func other(e edge, u int32) (int32, float64) {
	if e.a == u {
		return e.b, e.d
	}
	return e.a, -e.d
}

// sweeps runs Gauss–Seidel until the largest change is under 0.5 ns.
func sweeps(ref int32, edges []edge, adj map[int32][]int, x map[int32]float64) {
	nodes := make([]int32, 0, len(x))
	for r := range x {
		if r != ref {
			nodes = append(nodes, r)
		}
	}
	slices.Sort(nodes)
	for range 500 {
		if sweep(nodes, edges, adj, x) < 0.5 {
			return
		}
	}
}

func sweep(nodes []int32, edges []edge, adj map[int32][]int, x map[int32]float64) float64 {
	var worst float64
	for _, v := range nodes {
		var num, den float64
		for _, i := range adj[v] {
			u, d := other(edges[i], v)
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
	return worst
}

// huber reweights edges by their residual: full weight within 1.345 robust
// standard deviations (floor 1 µs), inversely proportional beyond.
func huber(edges []edge, x map[int32]float64) {
	res := make([]float64, len(edges))
	for i, e := range edges {
		res[i] = math.Abs(x[e.b] - x[e.a] - e.d)
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
