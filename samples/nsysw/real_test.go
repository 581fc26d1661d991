package nsysw_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// realCase is one job written in the real-nsys dialect: communicator
// hashes and NCCL's own ranges only, step ranges as a framework names
// them (or none), nothing naming a process group, a phase or a microbatch.
type realCase struct {
	name     string
	scenario string
	opts     nsysw.Options
	from     string // the Result's steps_from
	edit     func(*samples.Config)
	megatron bool // also create Megatron's composite groups, which carry nothing
}

// megatronGroups are the composite groups Megatron-LM creates beside the
// TP, PP and DP ones, which carry no traffic in the simulated job: per dp
// the model-parallel group (TP×PP), per pp the tensor-and-data group, per
// (tp, dp) the embedding group of the first and last stage, and per
// (tp, pp) the data-parallel group with CP (the DP members again).
func megatronGroups(c samples.Config) [][]int32 {
	keys := map[string][]int32{}
	var order []string
	add := func(key string, r int) {
		if _, ok := keys[key]; !ok {
			order = append(order, key)
		}
		keys[key] = append(keys[key], int32(r))
	}
	for r := range c.World() {
		p := c.Place(r)
		add(fmt.Sprintf("mp dp%d", p.DP), r)
		add(fmt.Sprintf("tp-dp pp%d", p.PP), r)
		add(fmt.Sprintf("dp-cp tp%d pp%d", p.TP, p.PP), r)
		if c.PP > 1 && (p.PP == 0 || p.PP == c.PP-1) {
			add(fmt.Sprintf("emb tp%d dp%d", p.TP, p.DP), r)
		}
	}
	out := make([][]int32, len(order))
	for i, k := range order {
		out[i] = keys[k]
	}
	return out
}

// withMegatronGroups adds megatronGroups to the options.
func withMegatronGroups(o nsysw.Options, c samples.Config) nsysw.Options {
	o.IdleComms = megatronGroups(c)
	return o
}

// threeFromZero is a 3-step capture numbered train_step 0, 1, 2.
func threeFromZero(c *samples.Config) { c.Steps, c.FirstStep = 3, 0 }

var realCases = []realCase{
	{"default/train_step", "default", nsysw.Options{Dialect: nsysw.DialectReal}, "annotations:train_step", nil, false},
	{"default/3-steps-from-0", "default", nsysw.Options{Dialect: nsysw.DialectReal}, "annotations:train_step", threeFromZero, false},
	{"default/iteration/per-node", "default", nsysw.Options{Dialect: nsysw.DialectReal, StepName: "iteration %d", PerNode: true}, "annotations:iteration", nil, false},
	{"cut-last-step/train_step", "cut-last-step", nsysw.Options{Dialect: nsysw.DialectReal}, "annotations:train_step", nil, false},
	{"dp-overlap/step_N", "dp-overlap", nsysw.Options{Dialect: nsysw.DialectReal, StepName: "step_%d"}, "annotations:step", nil, false},
	{"default/no-step-ranges", "default", nsysw.Options{Dialect: nsysw.DialectReal, NoStepRanges: true}, "dp-sync-period", nil, false},
	{"default/megatron-groups", "default", nsysw.Options{Dialect: nsysw.DialectReal}, "annotations:train_step", nil, true},
	{"default/megatron-groups/no-step-ranges/per-node", "default", nsysw.Options{Dialect: nsysw.DialectReal, NoStepRanges: true, PerNode: true}, "dp-sync-period", nil, true},
	{"default/no-step-ranges-no-init", "default", nsysw.Options{Dialect: nsysw.DialectReal, NoStepRanges: true, NoCommInit: true}, "dp-sync-period", nil, false},
	{"default/no-step-ranges-no-init/per-node", "default", nsysw.Options{Dialect: nsysw.DialectReal, NoStepRanges: true, NoCommInit: true, PerNode: true}, "dp-sync-period", nil, false},
	{"default/no-step-ranges/per-node", "default", nsysw.Options{Dialect: nsysw.DialectReal, NoStepRanges: true, PerNode: true}, "dp-sync-period", nil, false},
	{"cut-last-step/no-step-ranges", "cut-last-step", nsysw.Options{Dialect: nsysw.DialectReal, NoStepRanges: true}, "dp-sync-period", nil, false},
	{"dp-overlap/no-step-ranges", "dp-overlap", nsysw.Options{Dialect: nsysw.DialectReal, NoStepRanges: true}, "dp-sync-period", nil, false},
}

// TestRealDialectMeetsTruth: in the real-nsys dialect the layout, the
// steps (and what found them), the step time, every rank's exposed
// communication per axis and its bubble fraction meet the truth. Without
// step ranges the DP-sync period finds the truth's steps but the first
// (whose start the period cannot see), numbered from 1.
func TestRealDialectMeetsTruth(t *testing.T) {
	for _, c := range realCases {
		t.Run(c.name, func(t *testing.T) {
			cfg := sampletest.Config(t, c.scenario)
			if c.edit != nil {
				c.edit(&cfg)
			}
			if c.opts.NoStepRanges {
				cfg.TruthFrom = 1 // the period cannot see where the first step starts
			}
			job := sampletest.Simulate(t, cfg)
			dir := t.TempDir()
			opts := c.opts
			if c.megatron {
				opts = withMegatronGroups(opts, cfg)
			}
			if _, err := nsysw.WriteDir(dir, job, opts); err != nil {
				t.Fatal(err)
			}
			res := analyzeDir(t, dir)
			want := job.Truth.Steps
			if c.opts.NoStepRanges { // numbered 1, 2, ... after the unseen first
				want = nil
				for k := range job.Truth.Steps {
					want = append(want, k+1)
				}
			}
			checkReal(t, res, job.Truth, want, c.from)
		})
	}
}

func checkReal(t *testing.T, res *result.Result, tr samples.Truth, steps []int, from string) {
	t.Helper()
	l := res.Layout
	if l.TP != tr.TP || l.PP != tr.PP || l.DP != tr.DP {
		t.Errorf("layout TP%d PP%d DP%d (by %s), want TP%d PP%d DP%d", l.TP, l.PP, l.DP, l.By, tr.TP, tr.PP, tr.DP)
	}
	var got []int
	for _, it := range res.Iterations {
		got = append(got, it.Index)
	}
	if !slices.Equal(got, steps) || res.StepsFrom != from {
		t.Fatalf("steps %v from %q, want %v from %q", got, res.StepsFrom, steps, from)
	}
	if !sampletest.CloseTo(res.StepNs, tr.StepNs) || len(res.Ranks) != len(tr.Ranks) {
		t.Fatalf("step %d over %d ranks, want %d over %d", res.StepNs, len(res.Ranks), tr.StepNs, len(tr.Ranks))
	}
	for i, w := range tr.Ranks {
		g := res.Ranks[i]
		if g.TP != w.TP || g.PP != w.PP || g.DP != w.DP {
			t.Errorf("rank %d: tp%d pp%d dp%d, want tp%d pp%d dp%d", w.Rank, g.TP, g.PP, g.DP, w.TP, w.PP, w.DP)
		}
		if math.Abs(g.BubbleFraction-w.BubbleFraction) > 0.01 {
			t.Errorf("rank %d: bubble %.4f, want %.4f", w.Rank, g.BubbleFraction, w.BubbleFraction)
		}
		for ax, e := range w.ExposedNs {
			if !sampletest.CloseTo(g.ExposedNs[ax], e) {
				t.Errorf("rank %d %s: exposed %d, want %d", w.Rank, ax, g.ExposedNs[ax], e)
			}
		}
		if g.ExposedNs["other"] > 0 || g.CommNs["other"] > 0 {
			t.Errorf("rank %d: %d ns of communication on no axis (%d exposed)", w.Rank, g.CommNs["other"], g.ExposedNs["other"])
		}
	}
	if t.Failed() {
		t.Logf("analysed: schedule %s m=%d, step %d (truth %s m=%d, step %d)", res.Schedule, res.Microbatches, res.StepNs, tr.Schedule, tr.Microbatches, tr.StepNs)
	}
}

// TestRealDialectLayoutEveryScenario: from communicator hashes, membership
// and traffic alone (with Megatron's idle composite groups created too; and
// without step ranges and communicator creation: a capture started after
// init), every scenario's layout and
// every rank's coordinates are the truth's, and every communicator that
// carried traffic has a parallel axis.
func TestRealDialectLayoutEveryScenario(t *testing.T) {
	for _, sc := range samples.Scenarios {
		if sc.Name == "big-64" || sc.Name == "p2p-nometa" {
			continue // big-64: the benchmark job; p2p-nometa: pre-2.25 style kernels without communicator, docs/layout.md
		}
		for _, steps := range []bool{true, false} {
			t.Run(sc.Name+map[bool]string{true: "/train_step/megatron-groups", false: "/no-step-ranges-no-init"}[steps], func(t *testing.T) {
				job := sampletest.Job(t, sc.Name)
				dir := t.TempDir()
				opts := nsysw.Options{Dialect: nsysw.DialectReal, NoStepRanges: !steps, NoCommInit: !steps}
				if steps {
					opts = withMegatronGroups(opts, job.Config)
				}
				if _, err := nsysw.Write(dir, job.Trace, opts); err != nil {
					t.Fatal(err)
				}
				tr := sampletest.Load(t, source.Options{Workers: 2}, dir)
				l, err := layout.Infer(tr, layout.Flags{})
				if err != nil {
					t.Fatal(err)
				}
				checkLayout(t, tr, l, job.Truth)
			})
		}
	}
}

func checkLayout(t *testing.T, tr *model.Trace, l layout.Layout, want samples.Truth) {
	t.Helper()
	if l.TP != want.TP || l.PP != want.PP || l.DP != want.DP || l.CP != max(want.CP, 1) || l.EP != max(want.EP, 1) {
		t.Fatalf("layout TP%d PP%d DP%d CP%d EP%d (by %s), want TP%d PP%d DP%d CP%d EP%d", l.TP, l.PP, l.DP, l.CP, l.EP, l.By, want.TP, want.PP, want.DP, want.CP, want.EP)
	}
	for _, w := range want.Ranks {
		c := tr.Ranks[tr.FindRank(int32(w.Rank))].Coord
		if int(c.TP) != w.TP || int(c.PP) != w.PP || int(c.DP) != w.DP || int(c.CP) != w.CP || int(c.EP) != w.EP {
			t.Errorf("rank %d: %+v, want tp%d pp%d dp%d cp%d ep%d", w.Rank, c, w.TP, w.PP, w.DP, w.CP, w.EP)
		}
	}
	used := map[int32]bool{}
	for i, k := range tr.Events.Kind {
		if c := tr.Events.Coll[i]; k == model.KindComm && c >= 0 {
			used[tr.Colls.Comm[c]] = true
		}
	}
	for i, c := range tr.Comms {
		if used[int32(i)] && (c.Axis == model.AxisUnknown || c.Axis == model.AxisWorld) {
			t.Errorf("communicator %s %v carried traffic but has axis %s", c.ID, c.Members, c.Axis)
		}
	}
}
