package whatif

import (
	"math"
	"slices"
	"strings"
)

// Report is the what-if analysis of a graph: the self-check, the step
// times, the slowdown S and its attribution, and the published scenarios.
type Report struct {
	Steps []int64 `json:"steps"`

	TTrace    float64   `json:"t_trace_s"`        // mean recorded step time
	TOri      float64   `json:"t_ori_s"`          // mean replayed step without launch delays
	TIdeal    float64   `json:"t_ideal_s"`        // mean replayed step at ideal durations
	StepTrace []float64 `json:"step_trace_s"`     // per step
	StepOri   []float64 `json:"step_ori_s"`       // per step
	CheckAbs  float64   `json:"self_check_abs_s"` // worst self-check error over steps
	CheckRel  float64   `json:"self_check_rel"`   // the same, relative to the step

	LaunchSlowdown float64 `json:"launch_slowdown"` // TTrace / TOri
	S              float64 `json:"s"`               // TOri / TIdeal

	ByRank  []Share `json:"by_rank,omitempty"` // S per rank (worker), up to MaxRankShares workers
	ByDP    []Share `json:"by_dp"`             // S_dp per DP replica
	ByStage []Share `json:"by_stage"`          // S_stage per stage
	ByType  []Share `json:"by_type"`           // S per op type (PP send and recv merged per direction)

	TopWorkers []Worker `json:"top_workers"`      // the ⌈3 %⌉ workers ranked by min(S_dp, S_stage)
	MW         Fix      `json:"fix_slow_workers"` // M_W
	MS         Fix      `json:"fix_last_stage"`   // M_S
}

// Share is one attribution: S of the ops of Key measured, the rest ideal.
type Share struct {
	Key string  `json:"key"`
	ID  int32   `json:"id"`
	S   float64 `json:"s"`
}

// Fix is a fix scenario: T_rem (measured, the selection at ideal), T_add
// (ideal, the selection measured) and M = (T_ori − T_rem) / (T_ori − T_ideal).
type Fix struct {
	TRem float64 `json:"t_rem_s"`
	TAdd float64 `json:"t_add_s"`
	M    float64 `json:"m"`
}

// MaxRankShares is the most workers S is attributed to one by one (one
// replay each).
const MaxRankShares = 64

// Analyze runs the self-check, the ideal replay, the attribution and the
// published scenarios.
func Analyze(g *Graph) *Report {
	r := &Report{Steps: g.Steps}
	r.StepTrace = g.StepTimes(g.Start, g.End)
	r.TTrace = mean(r.StepTrace)
	r.CheckAbs, r.CheckRel = g.SelfCheck()
	nd, ideal := g.NoDelay(), g.Ideal()
	r.StepOri, r.TOri = g.StepTime(nd)
	_, r.TIdeal = g.StepTime(ideal)
	r.LaunchSlowdown, r.S = ratio(r.TTrace, r.TOri), ratio(r.TOri, r.TIdeal)
	r.attribute(g, nd, ideal)
	r.TopWorkers = r.topWorkers(g)
	r.MW = r.fix(g, nd, ideal, func(i int) bool { return slices.Contains(r.TopWorkers, g.Workers[g.Worker[i]]) })
	last := lastStage(g)
	r.MS = r.fix(g, nd, ideal, func(i int) bool { return g.Workers[g.Worker[i]].Stage == last })
	return r
}

// SelfCheck replays the measured inputs and returns the worst absolute and
// relative difference from the recorded step times.
func (g *Graph) SelfCheck() (abs, rel float64) {
	rec := g.StepTimes(g.Start, g.End)
	rep, _ := g.StepTime(g.Measured())
	for i := range rec {
		d := math.Abs(rep[i] - rec[i])
		abs, rel = max(abs, d), max(rel, d/rec[i])
	}
	return abs, rel
}

func (r *Report) attribute(g *Graph, nd, ideal Times) {
	share := func(key string, id int32, sel func(int) bool) Share {
		_, t := g.StepTime(Blend(ideal, nd, sel))
		return Share{Key: key, ID: id, S: ratio(t, r.TIdeal)}
	}
	if len(g.Workers) <= MaxRankShares {
		for w, x := range g.Workers {
			r.ByRank = append(r.ByRank, share("rank", x.Rank, func(i int) bool { return g.Worker[i] == int32(w) }))
		}
	}
	for d := range numDP(g) {
		r.ByDP = append(r.ByDP, share("dp", d, func(i int) bool { return g.Workers[g.Worker[i]].DP == d }))
	}
	for s := range lastStage(g) + 1 {
		r.ByStage = append(r.ByStage, share("stage", s, func(i int) bool { return g.Workers[g.Worker[i]].Stage == s }))
	}
	groups := typeGroups(g)
	for _, name := range sortedKeys(groups) {
		in := groups[name]
		r.ByType = append(r.ByType, share(name, -1, func(i int) bool { return in[g.Type[i]] }))
	}
}

// typeGroups maps each attribution label to the op types it covers: PP
// sends and recvs merge per direction ("forward-pp-comm").
func typeGroups(g *Graph) map[string]map[int32]bool {
	out := map[string]map[int32]bool{}
	for i, n := range g.Types {
		label := n
		if n == FwdSend || n == FwdRecv || n == BwdSend || n == BwdRecv {
			label = strings.SplitN(n, "-", 2)[0] + "-pp-comm"
		}
		if out[label] == nil {
			out[label] = map[int32]bool{}
		}
		out[label][int32(i)] = true
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func numDP(g *Graph) int32 {
	n := int32(0)
	for _, w := range g.Workers {
		n = max(n, w.DP+1)
	}
	return n
}

func lastStage(g *Graph) int32 {
	n := int32(0)
	for _, w := range g.Workers {
		n = max(n, w.Stage)
	}
	return n
}

// topWorkers ranks workers by min(S_dp, S_stage) and keeps the top ⌈3 %⌉
// (ties: lower rank first).
func (r *Report) topWorkers(g *Graph) []Worker {
	ws := slices.Clone(g.Workers)
	score := func(w Worker) float64 { return min(r.ByDP[w.DP].S, r.ByStage[w.Stage].S) }
	slices.SortStableFunc(ws, func(a, b Worker) int {
		if sa, sb := score(a), score(b); sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return int(a.Rank - b.Rank)
	})
	n := (len(ws)*3 + 99) / 100
	return ws[:n]
}

func (r *Report) fix(g *Graph, nd, ideal Times, sel func(int) bool) Fix {
	_, rem := g.StepTime(Blend(nd, ideal, sel))
	_, add := g.StepTime(Blend(ideal, nd, sel))
	return Fix{TRem: rem, TAdd: add, M: share(r.TOri-rem, r.TOri-r.TIdeal, r.TOri)}
}

// ratio is num/den, 0 for an empty denominator.
func ratio(num, den float64) float64 {
	if den <= 0 {
		return 0
	}
	return num / den
}

// share is num/den, 0 when den is nothing next to scale (no slowdown to
// explain): the Result's JSON cannot hold NaN.
func share(num, den, scale float64) float64 {
	if math.Abs(den) <= 1e-12*math.Abs(scale) {
		return 0
	}
	return num / den
}
