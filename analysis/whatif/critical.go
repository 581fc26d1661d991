package whatif

import (
	"fmt"
	"math"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// Path is the critical path of one step across ranks: the chain of ops
// whose delay moves the step's end, latest first, and its time by
// category ("compute stage 2", "PP transfer", "TP transfer", "launch
// delay"); the categories sum to the step time.
type Path struct {
	Step       int64              `json:"step"`
	Ops        []int32            `json:"-"` // op ids, from the step's last op back to its first
	ByCategory map[string]float64 `json:"by_category_s"`
}

// CriticalPaths walks each step's replay of t back from its last end:
// an op's binding predecessor is the one that ended last; a group member's
// is the member that started last (the others waited for it).
func (g *Graph) CriticalPaths(t Times) []Path {
	start, end := g.Replay(t)
	last := make([]int32, len(g.Steps))
	first := make([]float64, len(g.Steps))
	for i := range last {
		last[i], first[i] = -1, math.Inf(1)
	}
	for i, s := range g.Step {
		if last[s] < 0 || end[i] > end[last[s]] {
			last[s] = int32(i)
		}
		first[s] = min(first[s], start[i])
	}
	out := make([]Path, len(g.Steps))
	for s := range g.Steps {
		out[s] = g.walk(last[s], start, end, t, first[s])
		out[s].Step = g.Steps[s]
	}
	return out
}

func (g *Graph) walk(v int32, start, end []float64, t Times, origin float64) Path {
	p := Path{ByCategory: map[string]float64{}}
	for v >= 0 {
		p.Ops = append(p.Ops, v)
		if k := g.Group[v]; k >= 0 {
			m := g.latestMember(k, start, t)
			p.ByCategory[g.category(v, true)] += end[v] - start[m]
			if m != v {
				v = m
				p.Ops = append(p.Ops, v)
			}
		} else {
			p.ByCategory[g.category(v, false)] += end[v] - start[v]
		}
		pred := g.binding(v, end)
		ready := origin
		if pred >= 0 {
			ready = end[pred]
		}
		if d := start[v] - ready; d > 0 {
			p.ByCategory["launch delay"] += d
		}
		v = pred
	}
	return p
}

func (g *Graph) latestMember(k int32, start []float64, t Times) int32 {
	best := int32(-1)
	for _, m := range g.Members(k) {
		if !t.solo(m) && (best < 0 || start[m] > start[best]) {
			best = m
		}
	}
	return best
}

func (g *Graph) binding(v int32, end []float64) int32 {
	best := int32(-1)
	for _, p := range g.Preds(v) {
		if best < 0 || end[p] > end[best] {
			best = p
		}
	}
	return best
}

// category names what op v spends on the path.
func (g *Graph) category(v int32, transfer bool) string {
	ty := g.Type[v]
	switch {
	case transfer && g.Axis[ty] != "":
		return g.Axis[ty] + " transfer"
	case transfer || g.Comm[ty]:
		return "comm " + g.Types[ty]
	}
	return fmt.Sprintf("compute stage %d", g.Workers[g.Worker[v]].Stage)
}

// MeanPath averages the per-step categories of paths.
func MeanPath(paths []Path) map[string]float64 {
	out := map[string]float64{}
	for _, p := range paths {
		for k, v := range p.ByCategory {
			out[k] += v / float64(len(paths))
		}
	}
	return out
}

// SortedCategories lists m's keys by decreasing value.
func SortedCategories(m map[string]float64) []string {
	ks := sortedKeys(m)
	slices.SortStableFunc(ks, func(a, b string) int {
		switch {
		case m[a] > m[b]:
			return -1
		case m[a] < m[b]:
			return 1
		}
		return 0
	})
	return ks
}

// PathOps lists p's ops in time order with their recorded times on the
// clock whose step starts at stepStartNs, keeping the last
// result.MaxPathOps.
func (g *Graph) PathOps(p Path, stepStartNs int64) []result.PathOp {
	ops := p.Ops
	if len(ops) > result.MaxPathOps {
		ops = ops[:result.MaxPathOps]
	}
	out := make([]result.PathOp, 0, len(ops))
	for i := len(ops) - 1; i >= 0; i-- {
		v := ops[i]
		out = append(out, result.PathOp{
			Rank: int(g.Workers[g.Worker[v]].Rank), Name: g.Types[g.Type[v]],
			StartNs: stepStartNs + ns(g.Start[v]), EndNs: stepStartNs + ns(g.End[v]),
			Category: g.category(v, g.Group[v] >= 0),
		})
	}
	return out
}
