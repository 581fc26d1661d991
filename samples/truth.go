package samples

import (
	"math"

	"github.com/tpptrace/tpptrace/model"
)

// Truth is what the generator knows about a simulated job: the figures the
// analysis must recover, per docs/semantics.md. It is written as truth.json
// beside the traces.
type Truth struct {
	Config          Config       `json:"config"`
	WorldSize       int          `json:"world_size"`
	Schedule        string       `json:"schedule"` // "1f1b", "gpipe", "interleaved"; "none" when PP = 1
	Microbatches    int          `json:"microbatches"`
	VirtualStages   int          `json:"virtual_stages,omitempty"` // model chunks per stage, interleaved only
	Steps           []int        `json:"steps"`                    // ProfilerStep numbers that are complete on every rank
	StepNs          int64        `json:"step_ns"`                  // per docs/semantics.md
	Ranks           []TruthRank  `json:"ranks"`
	Stages          []TruthStage `json:"stages"`
	BottleneckStage int          `json:"bottleneck_stage"`
	StageImbalance  float64      `json:"stage_imbalance"` // max stage compute / mean stage compute
	SlowRank        int          `json:"slow_rank"`       // -1 when none was planted
	LateRank        int          `json:"late_rank"`       // rank whose host launches its DP collectives late; -1 when none
	IdealBubble     float64      `json:"ideal_bubble_fraction"`
	TP              int          `json:"tp"`
	PP              int          `json:"pp"`
	DP              int          `json:"dp"`
	CP              int          `json:"cp,omitempty"`
	EP              int          `json:"ep,omitempty"`
}

// TruthRank is one rank's figures, per step averaged over Steps.
type TruthRank struct {
	Rank           int              `json:"rank"`
	Host           string           `json:"host"`
	TP             int              `json:"tp"`
	PP             int              `json:"pp"`
	DP             int              `json:"dp"`
	CP             int              `json:"cp,omitempty"`
	EP             int              `json:"ep,omitempty"`
	ClockOffsetNs  int64            `json:"clock_offset_ns"` // relative to rank 0
	StepNs         int64            `json:"step_ns"`
	ComputeNs      int64            `json:"compute_ns"`
	IdleNs         int64            `json:"idle_ns"`
	BubbleNs       int64            `json:"bubble_ns"`
	BubbleFraction float64          `json:"bubble_fraction"`
	FillDrainNs    int64            `json:"fill_drain_bubble_ns"` // bubble before the first backward or after the last forward compute
	SteadyBubbleNs int64            `json:"steady_bubble_ns"`
	CommNs         map[string]int64 `json:"comm_ns"`
	ExposedNs      map[string]int64 `json:"exposed_ns"`
	PeakMemBytes   int64            `json:"peak_mem_bytes,omitempty"` // allocated GPU memory, max over Steps (MemoryEvents only)
	// ForwardNs and BackwardNs are the compute inside forward and backward
	// passes (PP > 1 only).
	ForwardNs  int64 `json:"forward_ns,omitempty"`
	BackwardNs int64 `json:"backward_ns,omitempty"`
}

// TruthStage is one stage's figures.
type TruthStage struct {
	Stage      int   `json:"stage"`
	ComputeNs  int64 `json:"compute_ns"`
	ForwardNs  int64 `json:"forward_ns,omitempty"`  // mean over the stage's ranks (PP > 1 only)
	BackwardNs int64 `json:"backward_ns,omitempty"` // mean over the stage's ranks (PP > 1 only)
	// PeakMemBytes is the largest peak of the stage's ranks (MemoryEvents
	// only); PeakMicrobatches is how many microbatches' activations (of a
	// whole stage; chunks count 1/v each) that peak holds.
	PeakMemBytes     int64   `json:"peak_mem_bytes,omitempty"`
	PeakMicrobatches float64 `json:"peak_microbatches,omitempty"`
}

// stepFigures are one rank's figures for one step.
type stepFigures struct {
	window, compute, idle, bubble, fillDrain int64
	fwd, bwd                                 int64 // compute inside forward and backward passes
	comm, exposed                            [nAxes]int64
}

// The communication axes truth reports, indexed like truthAxes.
const nAxes = 5

var truthAxes = [nAxes]model.Axis{model.AxisTP, model.AxisPP, model.AxisDP, model.AxisCP, model.AxisEP}

// truthClasses are the op classes of truthAxes.
var truthClasses = [nAxes]opClass{classTP, classPP, classDP, classCP, classEP}

func (s *sim) truth() Truth {
	c := s.cfg
	t := Truth{Config: *c, WorldSize: c.World(), Schedule: c.Schedule, Microbatches: c.Microbatches,
		SlowRank: -1, LateRank: -1, TP: c.TP, PP: c.PP, DP: c.DP, CP: c.CP, EP: c.EP,
		IdealBubble: float64(c.PP-1) / float64(c.chunks()*c.Microbatches+c.PP-1)}
	if c.chunks() > 1 {
		t.VirtualStages = c.chunks()
	}
	if c.PP == 1 {
		t.Schedule = "none"
	}
	if c.SlowRank >= 0 && c.SlowFactor > 1 {
		t.SlowRank = c.SlowRank
	}
	if c.LateNs > 0 {
		t.LateRank = c.LateRank
	}
	lo, hi := c.truthRange()
	for k := lo; k < hi; k++ {
		t.Steps = append(t.Steps, c.FirstStep+k)
	}
	t.StepNs = s.jobStepNs()
	for r := range s.ranks {
		t.Ranks = append(t.Ranks, s.truthRank(r))
	}
	t.Stages, t.BottleneckStage, t.StageImbalance = stageFigures(t.Ranks, c.PP)
	s.stagePeaks(t.Stages, t.Ranks)
	stagePhases(t.Stages, t.Ranks)
	return t
}

// jobStepNs is the mean over steps of (latest window end − earliest start).
func (s *sim) jobStepNs() int64 {
	var sum int64
	first, end := s.cfg.truthRange()
	n := end - first
	for k := first; k < end; k++ {
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for _, st := range s.ranks {
			lo, hi = min(lo, st.stepStart[k]), max(hi, st.stepEnd[k])
		}
		sum += hi - lo
	}
	return meanNs(sum, n)
}

func meanNs(sum int64, n int) int64 { return (sum + int64(n)/2) / int64(n) }

func (s *sim) truthRank(r int) TruthRank {
	c := s.cfg
	at := c.Place(r)
	host := r / c.GPUsPerHost
	tr := TruthRank{Rank: r, Host: c.Host(r), TP: at.TP, PP: at.PP, DP: at.DP, CP: at.CP, EP: at.EP,
		ClockOffsetNs: s.hostOffsets[host] - s.hostOffsets[0],
		CommNs:        map[string]int64{}, ExposedNs: map[string]int64{}}
	var sum stepFigures
	var frac float64
	first, end := c.truthRange()
	n := end - first
	for k := first; k < end; k++ {
		f := s.stepFigures(r, int32(k))
		sum.add(f)
		frac += float64(f.bubble) / float64(f.window)
	}
	tr.StepNs, tr.ComputeNs, tr.IdleNs = meanNs(sum.window, n), meanNs(sum.compute, n), meanNs(sum.idle, n)
	tr.BubbleNs, tr.FillDrainNs = meanNs(sum.bubble, n), meanNs(sum.fillDrain, n)
	tr.SteadyBubbleNs = meanNs(sum.bubble-sum.fillDrain, n)
	tr.BubbleFraction = round6(frac / float64(n))
	tr.PeakMemBytes = s.truthPeakMem(r)
	if c.PP > 1 {
		tr.ForwardNs, tr.BackwardNs = meanNs(sum.fwd, n), meanNs(sum.bwd, n)
	}
	for i, a := range truthAxes {
		if s.axisSize(a) > 1 {
			tr.CommNs[a.String()], tr.ExposedNs[a.String()] = meanNs(sum.comm[i], n), meanNs(sum.exposed[i], n)
		}
	}
	return tr
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func (s *sim) axisSize(a model.Axis) int {
	size, _ := s.cfg.span(a)
	return size
}

func (f *stepFigures) add(g stepFigures) {
	f.window += g.window
	f.compute += g.compute
	f.idle += g.idle
	f.bubble += g.bubble
	f.fillDrain += g.fillDrain
	f.fwd, f.bwd = f.fwd+g.fwd, f.bwd+g.bwd
	for i := range f.comm {
		f.comm[i] += g.comm[i]
		f.exposed[i] += g.exposed[i]
	}
}

// stagePhases averages the forward and backward compute of each stage's
// ranks.
func stagePhases(stages []TruthStage, ranks []TruthRank) {
	n := make([]int, len(stages))
	for _, r := range ranks {
		if r.PP < len(stages) {
			stages[r.PP].ForwardNs += r.ForwardNs
			stages[r.PP].BackwardNs += r.BackwardNs
			n[r.PP]++
		}
	}
	for i := range stages {
		if n[i] > 0 {
			stages[i].ForwardNs, stages[i].BackwardNs = meanNs(stages[i].ForwardNs, n[i]), meanNs(stages[i].BackwardNs, n[i])
		}
	}
}

// stageFigures averages compute over each stage's ranks and finds the
// bottleneck stage and the imbalance.
func stageFigures(ranks []TruthRank, p int) ([]TruthStage, int, float64) {
	sums, counts := make([]int64, p), make([]int, p)
	for _, r := range ranks {
		sums[r.PP] += r.ComputeNs
		counts[r.PP]++
	}
	stages, best := make([]TruthStage, p), 0
	var total int64
	for i := range stages {
		stages[i] = TruthStage{Stage: i, ComputeNs: meanNs(sums[i], counts[i])}
		total += stages[i].ComputeNs
		if stages[i].ComputeNs > stages[best].ComputeNs {
			best = i
		}
	}
	mean := float64(total) / float64(p)
	return stages, best, round6(float64(stages[best].ComputeNs) / mean)
}
