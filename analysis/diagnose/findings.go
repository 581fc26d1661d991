package diagnose

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// Remedies, as the seed gives them (§6.8, §6.10).
const (
	remedyBubble    = "raise the number of microbatches m, or use an interleaved schedule (v model chunks per stage)"
	remedyTP        = "keep each TP group inside one node (NVLink domain); check the rank order puts tp fastest"
	remedyPP        = "overlap the pipeline send/recv with compute; check the stages' boundaries are balanced"
	remedyDP        = "overlap the DP gradient sync with the backward pass (gradient buckets, overlap_grad_reduce)"
	remedyOther     = "overlap the collective with independent compute, or reduce how often and how much it sends"
	remedyImbalance = "re-partition layers between stages so that every stage takes about the mean"
	remedySlow      = "inspect the slow GPU: clocks and throttle reasons, temperature, ECC errors, its host's load"
	remedyTopology  = "fix the launch layout: rank order and the placement of TP groups on hosts"
)

// Inputs are what Findings needs beyond the Figures.
type Inputs struct {
	ImbalanceGainNs int64
	Problems        []Problem
	Blame           Blame // who held collectives back, per step
	// SlowWaitNs is, per slow rank and axis key, the exposed wait of the
	// other members of the collectives it arrived last to, summed over
	// members, per step. That wait is the slow rank's cost, so the exposed
	// communication findings leave it out.
	SlowWaitNs map[int32]map[string]int64
	GPULines   map[int]result.Statement // per rank, what its GPU did (GPU samples), for gpu_throttle
	// Arrivals are, per rank and axis, how it arrived at its groups'
	// collectives: the late-rank finding judges them (LateRanks).
	Arrivals []Arrival
	// Extra are findings made elsewhere (the memory peak, missing ranks),
	// ranked with the others.
	Extra []result.Finding
}

// Problem is a topology problem found by the layout step: its kind and
// what it says.
type Problem struct {
	Kind  string
	Says  result.Statement
	Ranks []int32
}

// Findings ranks every cause of lost time by its cost per step, largest
// first (Rank); findings that cost nothing measurable are left out,
// topology problems, throttled GPUs and in.Extra always kept.
func Findings(fig *Figures, in Inputs) []result.Finding {
	var fs []result.Finding
	fs = append(fs, bubbleFinding(fig)...)
	fs = append(fs, idleFinding(fig)...)
	late := LateRanks(fig, in.Arrivals)
	claims := waitClaims{slow: in.SlowWaitNs, late: lateWaits(late)}
	for _, ax := range vocab.FindingAxes {
		fs = append(fs, exposedFinding(fig, ax, claims)...)
	}
	fs = append(fs, lateFindings(fig, late)...)
	fs = append(fs, imbalanceFinding(fig, in.ImbalanceGainNs)...)
	fs = append(fs, slowFindings(fig, in.SlowWaitNs)...)
	fs = append(fs, PairNotes(fig, in.Blame)...)
	fs = append(fs, topologyFindings(fig, in.Problems)...)
	fs = append(fs, throttleFindings(fig, in.GPULines)...)
	fs = append(fs, in.Extra...)
	for i := range fs {
		fs[i].CostShare = share(fs[i].CostNs, fig.StepNs)
		if fs[i].Severity == "" {
			fs[i].Severity = severity(fs[i].CostShare)
		}
	}
	Rank(fs)
	return fs
}

// Rank orders findings the one way every step ranks them: missing ranks
// first (they qualify every other figure), then by cost per step, largest
// first, keeping the order of equal costs.
func Rank(fs []result.Finding) {
	slices.SortStableFunc(fs, func(a, b result.Finding) int {
		if am, bm := a.Kind == vocab.KindMissingRanks, b.Kind == vocab.KindMissingRanks; am != bm {
			return map[bool]int{true: -1, false: 1}[am]
		}
		return cmp.Compare(b.CostNs, a.CostNs)
	})
}

func share(ns, step int64) float64 {
	if step <= 0 {
		return 0
	}
	return float64(ns) / float64(step)
}

// meanRanks returns the mean over ranks of f and the ranks sorted by f, largest first.
func meanRanks(fig *Figures, f func(r result.RankStats) int64) (int64, []int) {
	if len(fig.Ranks) == 0 {
		return 0, nil
	}
	var sum int64
	rs := slices.Clone(fig.Ranks)
	for _, r := range rs {
		sum += f(r)
	}
	slices.SortStableFunc(rs, func(a, b result.RankStats) int { return cmp.Compare(f(b), f(a)) })
	ids := make([]int, 0, 8)
	for _, r := range rs[:min(8, len(rs))] {
		if f(r) > 0 {
			ids = append(ids, r.Rank)
		}
	}
	return sum / int64(len(rs)), ids
}

func imbalanceFinding(fig *Figures, gain int64) []result.Finding {
	if len(fig.Stages) < 2 || fig.StageImbalance < 1.05 || gain <= 0 {
		return nil
	}
	b := fig.Stages[max(0, slices.IndexFunc(fig.Stages, func(s result.StageStats) bool { return s.Stage == fig.BottleneckStage }))]
	f := result.Finding{Kind: vocab.KindImbalance, CostNs: gain, Ranks: b.Ranks, Stages: []int{b.Stage}, Remedy: remedyImbalance,
		Headline: result.Say(vocab.SayImbalance, result.Ns("compute", b.ComputeNs), result.Ratio("imbalance", fig.StageImbalance)).At(b.Stage)}
	for _, s := range fig.Stages {
		line := result.Say(vocab.SayStageCompute, result.Ns("compute", s.ComputeNs)).At(s.Stage)
		if s.ForwardNs > 0 || s.BackwardNs > 0 {
			line = line.With(result.Ns("forward", s.ForwardNs), result.Ns("backward", s.BackwardNs))
		}
		f.Evidence = append(f.Evidence, line)
	}
	f.Evidence = append(f.Evidence, result.Say(vocab.SayImbalanceGain, result.Ns("gain", gain)))
	return []result.Finding{f}
}

func slowFindings(fig *Figures, waits map[int32]map[string]int64) []result.Finding {
	var fs []result.Finding
	for _, s := range fig.SlowRanks {
		i := rankIndex(fig, s.Rank)
		if i < 0 {
			continue
		}
		r := fig.Ranks[i]
		cost := max(s.BlameNs, int64(s.ComputeExcess*float64(r.ComputeNs)/(1+s.ComputeExcess)))
		ev := slices.Clone(s.Evidence)
		if axes := waitAxes(waits[int32(r.Rank)]); len(axes) > 0 {
			at := len(ev) // after the waits, before the GPU's evidence
			if i := slices.IndexFunc(ev, func(l result.Statement) bool { return l.Say == vocab.SayGPU }); i > 0 {
				at = i
			}
			ev = slices.Insert(ev, at, result.Say(vocab.SayCountedHere).On(axes...))
		}
		fs = append(fs, result.Finding{Kind: vocab.KindSlowRank, CostNs: cost, Ranks: []int{r.Rank}, Stages: []int{r.PP},
			Headline: result.Say(vocab.SaySlowRank, result.Frac("excess", s.ComputeExcess)).About(r.Rank),
			Evidence: ev, Remedy: remedySlow})
	}
	return fs
}

// waitAxes lists the axes with a positive wait.
func waitAxes(w map[string]int64) []string {
	var axes []string
	for _, ax := range vocab.FindingAxes {
		if w[ax] > 0 {
			axes = append(axes, ax)
		}
	}
	return axes
}

func topologyFindings(fig *Figures, ps []Problem) []result.Finding {
	var fs []result.Finding
	for _, p := range ps {
		f := result.Finding{Kind: vocab.KindTopology, Severity: vocab.SevMedium, Headline: p.Says, Remedy: remedyTopology,
			Evidence: []result.Statement{result.Say(vocab.SayProblem).Quoting("problem", p.Kind)}}
		for _, r := range p.Ranks {
			f.Ranks = append(f.Ranks, int(r))
		}
		if p.Kind == "tp_across_hosts" { // its cost is the exposed TP time, which that finding counts
			tp, _ := meanRanks(fig, func(r result.RankStats) int64 { return r.ExposedNs["TP"] })
			f.Severity = severity(share(tp, fig.StepNs))
			f.Evidence = append(f.Evidence, result.Say(vocab.SayTPCost, result.Ns("exposed", tp)))
		}
		fs = append(fs, f)
	}
	return fs
}
