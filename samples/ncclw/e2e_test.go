package ncclw_test

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/nccl/inspector"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/kinetow"
	"github.com/tpptrace/tpptrace/samples/ncclw"
)

// e2eJobs are the jobs of the Inspector end-to-end test: host clock
// offsets (default, clock-skew), and TP and DP communicators that run
// several operations (reduce-scatter, all-gather, all-reduce), whose
// coll_sn counters overlap.
var e2eJobs = []struct {
	name, scenario       string
	distOpt, seqParallel bool
}{
	{"default", "default", false, false},
	{"clock-skew", "clock-skew", false, false},
	{"dist-optimizer+sequence-parallel", "default", true, true},
}

// TestInspectorAloneTimesTheJob writes a job's verbose Inspector records and
// its Kineto traces, then analyses (1) the Inspector records alone: the
// collectives are matched across ranks, the clock offsets are the truth's
// within 20 µs, the layout is the truth's and every rank has wait and
// transfer on the TP and DP axes close to the Kineto analysis (the
// Inspector stamps are whole µs); and (2) Kineto and Inspector together:
// the Inspector events yield to the Kineto timelines and every figure is
// the Kineto-only analysis's.
func TestInspectorAloneTimesTheJob(t *testing.T) {
	for _, j := range e2eJobs {
		t.Run(j.name, func(t *testing.T) {
			cfg, err := samples.Lookup(j.scenario)
			if err != nil {
				t.Fatal(err)
			}
			cfg.DistOptimizer, cfg.SeqParallel = cfg.DistOptimizer || j.distOpt, cfg.SeqParallel || j.seqParallel
			job, insp, kin := writeForms(t, cfg)
			alone, n := analyzeDirs(t, insp)
			if n == 0 {
				t.Fatal("the Inspector records gave no events")
			}
			kinOnly, _ := analyzeDirs(t, kin)
			checkInspectorAlone(t, alone, kinOnly, job.Truth)
			both, n := analyzeDirs(t, kin, insp)
			if n != 0 {
				t.Errorf("%d Inspector events kept beside the Kineto timelines", n)
			}
			sameFigures(t, both, kinOnly)
		})
	}
}

func writeForms(t *testing.T, cfg samples.Config) (job *samples.Job, insp, kin string) {
	t.Helper()
	job, err := samples.Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	insp, kin = filepath.Join(dir, "inspector"), filepath.Join(dir, "kineto")
	if _, err := ncclw.WriteInspectorDir(insp, job, ncclw.InspectorOptions{Verbose: true, CommNames: true}); err != nil {
		t.Fatal(err)
	}
	if err := kinetow.WriteDir(kin, job); err != nil {
		t.Fatal(err)
	}
	return job, insp, kin
}

// analyzeDirs loads dirs as `tpptrace analyze` does and analyses them; n is
// the number of events on Inspector streams in the loaded trace.
func analyzeDirs(t *testing.T, dirs ...string) (res *result.Result, n int) {
	t.Helper()
	tr, err := ingest.Load(context.Background(), dirs, source.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tr.Events.Stream {
		if s >= 0 && tr.Streams[s].Name == inspector.InspectorStream {
			n++
		}
	}
	res, err = analysis.Analyze(context.Background(), tr, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res, n
}

func checkInspectorAlone(t *testing.T, got, kin *result.Result, truth samples.Truth) {
	t.Helper()
	l := got.Layout
	if got.Clock.Matched == 0 || l.TP != truth.TP || l.PP != truth.PP || l.DP != truth.DP || len(got.Ranks) != len(truth.Ranks) {
		t.Fatalf("clock %+v layout %+v over %d ranks, want matched collectives, TP%d PP%d DP%d over %d ranks",
			got.Clock, l, len(got.Ranks), truth.TP, truth.PP, truth.DP, len(truth.Ranks))
	}
	var worstOff, worstAxis int64
	for i, w := range truth.Ranks {
		g := got.Ranks[i]
		d := abs(g.ClockOffsetNs - w.ClockOffsetNs)
		if d > 20e3 {
			t.Errorf("rank %d: clock offset %d, want %d", w.Rank, g.ClockOffsetNs, w.ClockOffsetNs)
		}
		worstOff = max(worstOff, d)
		for _, ax := range []string{model.AxisTP.String(), model.AxisDP.String()} {
			worstAxis = max(worstAxis, checkAxis(t, w.Rank, ax, g, kin.Ranks[i]))
		}
	}
	t.Logf("%d instances matched (Kineto %d); worst clock offset error %d ns, worst TP/DP wait or transfer off Kineto's by %d ns",
		got.Clock.Matched, kin.Clock.Matched, worstOff, worstAxis)
}

func abs(x int64) int64 { return max(x, -x) }

// checkAxis: the rank's wait and transfer on axis are present and within
// 5 % or 60 µs per step of the Kineto analysis: each instance's start is
// known to about 1.5 µs (a µs stop stamp less a whole-µs exec time) and a
// step holds tens of instances per axis.
// It returns the larger deviation.
func checkAxis(t *testing.T, rank int, ax string, got, kin result.RankStats) int64 {
	t.Helper()
	wait, okW := got.WaitNs[ax]
	xfer, okX := got.TransferNs[ax]
	if !okW || !okX || xfer <= 0 {
		t.Errorf("rank %d %s: wait %v transfer %v: missing", rank, ax, got.WaitNs, got.TransferNs)
		return 0
	}
	if !near(wait, kin.WaitNs[ax]) || !near(xfer, kin.TransferNs[ax]) {
		t.Errorf("rank %d %s: wait %d transfer %d, Kineto %d %d", rank, ax, wait, xfer, kin.WaitNs[ax], kin.TransferNs[ax])
	}
	return max(abs(wait-kin.WaitNs[ax]), abs(xfer-kin.TransferNs[ax]))
}

func near(got, want int64) bool {
	d := math.Abs(float64(got - want))
	return d <= 60e3 || d <= 0.05*math.Abs(float64(want))
}

// sameFigures: everything but the inputs and what was skipped (the
// Inspector's dropped events) equals.
func sameFigures(t *testing.T, got, want *result.Result) {
	t.Helper()
	strip := func(r *result.Result) string {
		c := *r
		c.Sources, c.Skipped = nil, nil
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if g, w := strip(got), strip(want); g != w {
		t.Errorf("Kineto + Inspector differs from Kineto alone:\n%.600s\n%.600s", g, w)
	}
}
