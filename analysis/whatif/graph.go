package whatif

import (
	"errors"
	"fmt"
)

// Worker is one rank of the replayed job, with its DP replica and stage.
type Worker struct {
	Rank  int32 `json:"rank"`
	DP    int32 `json:"dp"`
	Stage int32 `json:"stage"`
}

// Graph is the op graph of a set of steps. Ops are parallel slices indexed
// by op id; steps are independent sub-graphs sharing the engine.
type Graph struct {
	Types   []string // op type names; Type indexes this
	Comm    []bool   // per type: a communication (its ideal is a median)
	Axis    []string // per type: the communicator axis of a collective type ("tp", "dp", ...), "" otherwise
	Workers []Worker // Worker indexes this
	Steps   []int64  // step numbers; Step indexes this

	Type   []int32   // op type
	Worker []int32   // worker
	Step   []int32   // step
	Group  []int32   // synchronisation group, -1 for none
	Start  []float64 // recorded start, seconds from the step's start
	End    []float64 // recorded end
	Dur    []float64 // measured duration (ops outside groups)
	Xfer   []float64 // measured transfer: end − latest start in the group (group members)
	Delay  []float64 // measured launch delay

	edgeFrom, edgeTo []int32 // edges while building
	grpOf            []int32 // group of each member while building (parallel to grpMem)
	grpMem           []int32

	predOff, pred []int32 // predecessors of each op (CSR)
	grpOff, grp   []int32 // members of each group (CSR)
	nGroups       int
	order         []int32 // topological order of nodes: op id, or -(group+1)

	// BreakCycles dissolves the groups on a cycle (their members replay
	// with their recorded durations, waits included) instead of failing:
	// cross-stream edges inferred from a trace can close a cycle within
	// their tolerance. Dissolved counts them.
	BreakCycles bool
	Dissolved   int
}

// AddOp appends an op and returns its id.
func (g *Graph) AddOp(typ, worker, step int32, start, end float64) int32 {
	g.Type = append(g.Type, typ)
	g.Worker = append(g.Worker, worker)
	g.Step = append(g.Step, step)
	g.Group = append(g.Group, -1)
	g.Start = append(g.Start, start)
	g.End = append(g.End, end)
	return int32(len(g.Type) - 1)
}

// TypeID returns the index of name in Types, adding it when absent.
func (g *Graph) TypeID(name string) int32 {
	for i, n := range g.Types {
		if n == name {
			return int32(i)
		}
	}
	return g.addType(name, isComm(name), "")
}

func (g *Graph) addType(name string, comm bool, axis string) int32 {
	g.Types = append(g.Types, name)
	g.Comm = append(g.Comm, comm)
	g.Axis = append(g.Axis, axis)
	return int32(len(g.Types) - 1)
}

// Len is the number of ops.
func (g *Graph) Len() int { return len(g.Type) }

// AddEdge records that op a ends before op b starts (negative ids are ignored).
func (g *Graph) AddEdge(a, b int32) {
	if a < 0 || b < 0 || a == b {
		return
	}
	g.edgeFrom = append(g.edgeFrom, a)
	g.edgeTo = append(g.edgeTo, b)
}

// AddGroup makes members one synchronisation group (ids < 0 are dropped);
// an op already in a group is left where it is.
func (g *Graph) AddGroup(members ...int32) {
	id := int32(g.nGroups)
	n := 0
	for _, m := range members {
		if m >= 0 && g.Group[m] < 0 {
			g.Group[m] = id
			g.grpMem = append(g.grpMem, m)
			g.grpOf = append(g.grpOf, id)
			n++
		}
	}
	if n > 0 {
		g.nGroups++
	}
}

// Preds returns the predecessors of op i (after Finish).
func (g *Graph) Preds(i int32) []int32 { return g.pred[g.predOff[i]:g.predOff[i+1]] }

// Members returns the ops of group k (after Finish).
func (g *Graph) Members(k int32) []int32 { return g.grp[g.grpOff[k]:g.grpOff[k+1]] }

// NumGroups is the number of synchronisation groups.
func (g *Graph) NumGroups() int { return g.nGroups }

// ErrCycle is returned when the group-contracted graph has a cycle.
var ErrCycle = errors.New("op graph has a cycle")

// Finish freezes the edges and groups, orders the graph and measures the
// durations, transfers and launch delays from the recorded times.
func (g *Graph) Finish() error {
	g.predOff, g.pred = csr(len(g.Type), g.edgeTo, g.edgeFrom)
	g.grpOff, g.grp = csr(g.nGroups, g.grpOf, g.grpMem)
	g.edgeFrom, g.edgeTo, g.grpOf, g.grpMem = nil, nil, nil, nil
	for {
		stuck, err := g.sort()
		if err == nil {
			break
		}
		if !g.BreakCycles || !g.dissolve(stuck) {
			return err
		}
	}
	g.measure()
	return nil
}

// dissolve takes the members of the stuck groups out of their groups,
// rebuilds the member lists and reports whether there was any.
func (g *Graph) dissolve(stuck []int32) bool {
	n := 0
	for _, k := range stuck {
		ms := g.Members(k)
		for _, m := range ms {
			g.Group[m] = -1
		}
		if len(ms) > 0 {
			g.Dissolved++
			n++
		}
	}
	var keys, vals []int32
	for i, k := range g.Group {
		if k >= 0 {
			keys, vals = append(keys, k), append(vals, int32(i))
		}
	}
	g.grpOff, g.grp = csr(g.nGroups, keys, vals)
	return n > 0
}

// csr groups vals by keys (0..n-1) into offsets and a flat array.
func csr(n int, keys, vals []int32) ([]int32, []int32) {
	off := make([]int32, n+1)
	for _, k := range keys {
		off[k+1]++
	}
	for i := range n {
		off[i+1] += off[i]
	}
	flat := make([]int32, len(vals))
	next := append([]int32(nil), off[:n]...)
	for i, k := range keys {
		flat[next[k]] = vals[i]
		next[k]++
	}
	return off, flat
}

// node is the contracted node of op i: i, or len(ops)+group.
func (g *Graph) node(i int32) int32 {
	if k := g.Group[i]; k >= 0 {
		return int32(len(g.Type)) + k
	}
	return i
}

// sort orders the contracted graph topologically (Kahn's algorithm); on
// a cycle it returns the groups left unordered.
func (g *Graph) sort() ([]int32, error) {
	soff, succ, indeg, err := g.contracted()
	if err != nil {
		return soff, err
	}
	g.order = g.order[:0]
	queue := make([]int32, 0, len(indeg))
	for v := range int32(len(indeg)) {
		if indeg[v] == 0 && g.live(v) {
			queue = append(queue, v)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		g.order = append(g.order, g.nodeRef(v))
		for _, w := range succ[soff[v]:soff[v+1]] {
			if indeg[w]--; indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	if len(g.order) == g.liveNodes() {
		return nil, nil
	}
	return g.stuck(indeg), fmt.Errorf("%w: %d of %d nodes ordered", ErrCycle, len(g.order), g.liveNodes())
}

// contracted returns the successors (CSR) and in-degrees of the
// group-contracted nodes; on an edge inside one group it returns that
// group (as the first result) and ErrCycle.
func (g *Graph) contracted() (soff, succ, indeg []int32, err error) {
	n := len(g.Type) + g.nGroups
	indeg = make([]int32, n)
	var from, to []int32
	for b := range int32(len(g.Type)) {
		for _, a := range g.Preds(b) {
			na, nb := g.node(a), g.node(b)
			if na == nb {
				return []int32{g.Group[a]}, nil, nil, fmt.Errorf("%w: ops %d and %d of one group depend on each other", ErrCycle, a, b)
			}
			from, to = append(from, nb), append(to, na)
			indeg[nb]++
		}
	}
	soff, succ = csr(n, to, from)
	return soff, succ, indeg, nil
}

// stuck lists the groups Kahn's algorithm could not order.
func (g *Graph) stuck(indeg []int32) []int32 {
	var out []int32
	for k := range int32(g.nGroups) {
		if indeg[int32(len(g.Type))+k] > 0 {
			out = append(out, k)
		}
	}
	return out
}

// live reports whether contracted node v stands for something: an op
// outside groups, or a group.
func (g *Graph) live(v int32) bool { return int(v) >= len(g.Type) || g.Group[v] < 0 }

func (g *Graph) liveNodes() int {
	n := g.nGroups
	for _, k := range g.Group {
		if k < 0 {
			n++
		}
	}
	return n
}

func (g *Graph) nodeRef(v int32) int32 {
	if int(v) >= len(g.Type) {
		return -(v - int32(len(g.Type)) + 1)
	}
	return v
}
