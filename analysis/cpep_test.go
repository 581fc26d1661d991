package analysis_test

import (
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestContextExpertParallelEndToEnd writes the cp2 and moe-ep4 jobs as
// Kineto traces (with and without process-group descriptions), reads them
// back with ingest.Load and checks the layout, every rank's coordinates,
// the communicators' axes and the per-axis figures against the truth.
func TestContextExpertParallelEndToEnd(t *testing.T) {
	for _, name := range []string{"cp2", "moe-ep4"} {
		for _, desc := range []bool{true, false} {
			t.Run(name+map[bool]string{true: "/descriptions", false: "/traffic"}[desc], func(t *testing.T) {
				cfg := sampletest.Config(t, name)
				cfg.Descriptions = desc
				job := sampletest.Simulate(t, cfg)
				tr := sampletest.Load(t, source.Options{}, sampletest.KinetoDir(t, job))
				res := analyzeTrace(t, tr)
				checkCPEPLayout(t, res.Layout, job.Truth)
				checkCPEPCoords(t, tr, job.Config)
				checkCPEPCommAxes(t, res.Comms, job.Config)
				checkCPEPFigures(t, res.Ranks, job.Truth)
			})
		}
	}
}

func checkCPEPLayout(t *testing.T, got result.Layout, want samples.Truth) {
	t.Helper()
	if got.TP != want.TP || got.PP != want.PP || got.DP != want.DP || got.CP != max(want.CP, 1) || got.EP != max(want.EP, 1) {
		t.Errorf("layout %+v, want tp %d pp %d dp %d cp %d ep %d", got, want.TP, want.PP, want.DP, want.CP, want.EP)
	}
	if got.Order != "tp-cp-ep-dp-pp" {
		t.Errorf("order %q, want tp-cp-ep-dp-pp", got.Order)
	}
}

func checkCPEPCoords(t *testing.T, tr *model.Trace, cfg samples.Config) {
	t.Helper()
	if len(tr.Ranks) != cfg.World() {
		t.Fatalf("%d ranks, want %d", len(tr.Ranks), cfg.World())
	}
	for _, r := range tr.Ranks {
		p := cfg.Place(int(r.Rank))
		want := model.Coord{TP: int32(p.TP), PP: int32(p.PP), DP: int32(p.DP), CP: int32(p.CP), EP: int32(p.EP)}
		if r.Coord != want {
			t.Errorf("rank %d: coord %+v, want %+v", r.Rank, r.Coord, want)
		}
	}
}

// checkCommAxes expects every communicator of more than one rank but the
// world to carry the axis on which all its members but one coordinate agree.
func checkCPEPCommAxes(t *testing.T, comms []result.CommStats, cfg samples.Config) {
	t.Helper()
	seen := map[string]int{}
	for _, c := range comms {
		want := cpepAxisOfMembers(cfg, c.Members)
		if len(c.Members) == cfg.World() {
			want = "WORLD"
		}
		seen[c.Axis]++
		if c.Axis != want {
			t.Errorf("communicator %s %v: axis %s (by %s), want %s", c.ID, c.Members, c.Axis, c.AxisBy, want)
		}
	}
	for _, ax := range []string{"CP", "EP"} {
		if n, _ := cfg.Size(ax); n > 1 && seen[ax] == 0 {
			t.Errorf("no %s communicator among %d", ax, len(comms))
		}
	}
}

// axisOfMembers is the one axis on which members differ.
func cpepAxisOfMembers(cfg samples.Config, members []int) string {
	first := cfg.Place(members[0])
	differ := ""
	for _, m := range members[1:] {
		p := cfg.Place(m)
		for ax, d := range map[string]bool{"TP": p.TP != first.TP, "CP": p.CP != first.CP, "EP": p.EP != first.EP, "DP": p.DP != first.DP, "PP": p.PP != first.PP} {
			if d && differ != "" && differ != ax {
				return "mixed"
			}
			if d {
				differ = ax
			}
		}
	}
	return differ
}

func checkCPEPFigures(t *testing.T, ranks []result.RankStats, want samples.Truth) {
	t.Helper()
	if len(ranks) != len(want.Ranks) {
		t.Fatalf("%d ranks, want %d", len(ranks), len(want.Ranks))
	}
	for i, w := range want.Ranks {
		got := ranks[i]
		if math.Abs(got.BubbleFraction-w.BubbleFraction) > 0.01 {
			t.Errorf("rank %d: bubble fraction %.4f, want %.4f", w.Rank, got.BubbleFraction, w.BubbleFraction)
		}
		for ax, e := range w.ExposedNs {
			if !sampletest.CloseTo(got.ExposedNs[ax], e) || !sampletest.CloseTo(got.CommNs[ax], w.CommNs[ax]) {
				t.Errorf("rank %d %s: comm %d exposed %d, want %d %d", w.Rank, ax, got.CommNs[ax], got.ExposedNs[ax], w.CommNs[ax], e)
			}
		}
	}
}
