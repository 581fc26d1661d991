package analysis_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/ncclw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestMergedKinetoAndNCCL writes a job whose process groups carry no
// descriptions as Kineto traces, plus its NCCL INFO logs and Inspector
// records, reads them with one ingest.Load and checks that the axes come
// from the NCCL side (not from traffic guesses), that hosts reach the ranks
// and that the per-rank figures still agree with the truth.
func TestMergedKinetoAndNCCL(t *testing.T) {
	for _, name := range []string{"default", "dp-exposed"} {
		t.Run(name, func(t *testing.T) {
			job := simulateNoDescs(t, name)
			dir := t.TempDir()
			writeAll(t, dir, job)
			res := loadAndAnalyze(t, dir)
			checkLayout(t, res, job.Truth)
			checkCommAxes(t, res, &job.Config)
			checkRanksAgainstTruth(t, res, job.Truth)
		})
	}
}

func simulateNoDescs(t *testing.T, name string) *samples.Job {
	t.Helper()
	cfg := sampletest.Config(t, name)
	cfg.Descriptions = false
	return sampletest.Simulate(t, cfg)
}

func writeAll(t *testing.T, dir string, job *samples.Job) {
	t.Helper()
	sampletest.WriteKineto(t, dir, job)
	if _, err := ncclw.WriteLogs(dir+"/nccl", job); err != nil {
		t.Fatal(err)
	}
	if _, err := ncclw.WriteInspectorDir(dir+"/inspector", job, ncclw.InspectorOptions{CommNames: true}); err != nil {
		t.Fatal(err)
	}
}

func checkLayout(t *testing.T, res *result.Result, tr samples.Truth) {
	t.Helper()
	l := res.Layout
	if l.TP != tr.TP || l.PP != tr.PP || l.DP != tr.DP || l.By != "descriptions" {
		t.Errorf("layout %+v, want TP%d PP%d DP%d decided by descriptions", l, tr.TP, tr.PP, tr.DP)
	}
}

// checkCommAxes: every communicator the analysis reports is labelled with
// its true axis and has its true host count; those read from the inputs
// are labelled from a description or an equal member set, the send/recv
// links analysis creates ("p2p:a-b") from traffic.
func checkCommAxes(t *testing.T, res *result.Result, cfg *samples.Config) {
	t.Helper()
	if len(res.Comms) == 0 {
		t.Fatal("no communicators in the result")
	}
	for _, c := range res.Comms {
		want := trueAxis(cfg, c.Members)
		by := []string{"members", "description"}
		if strings.HasPrefix(c.ID, "p2p:") {
			by = []string{"traffic"}
		}
		if c.Axis != want.String() || !slices.Contains(by, c.AxisBy) {
			t.Errorf("communicator %s %v: axis %s by %s, want %s by %v", c.ID, c.Members, c.Axis, c.AxisBy, want, by)
		}
		if h := trueHosts(cfg, c.Members); c.Hosts != h {
			t.Errorf("communicator %s: %d hosts, want %d", c.ID, c.Hosts, h)
		}
	}
}

func trueAxis(cfg *samples.Config, members []int) model.Axis {
	var vary [3]bool
	tp0, pp0, dp0 := cfg.Coord(members[0])
	for _, m := range members[1:] {
		tp, pp, dp := cfg.Coord(m)
		vary[0], vary[1], vary[2] = vary[0] || tp != tp0, vary[1] || pp != pp0, vary[2] || dp != dp0
	}
	return map[[3]bool]model.Axis{{true, false, false}: model.AxisTP, {false, true, false}: model.AxisPP, {false, false, true}: model.AxisDP}[vary]
}

func trueHosts(cfg *samples.Config, members []int) int {
	var hosts []string
	for _, m := range members {
		if h := cfg.Host(m); !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	return len(hosts)
}

// checkRanksAgainstTruth uses the tolerances of the analysis truth tests:
// bubble fraction within 0.01, times within 5 % or 0.5 ms.
func checkRanksAgainstTruth(t *testing.T, res *result.Result, tr samples.Truth) {
	t.Helper()
	if len(res.Ranks) != len(tr.Ranks) {
		t.Fatalf("%d ranks, want %d", len(res.Ranks), len(tr.Ranks))
	}
	for i, want := range tr.Ranks {
		got := res.Ranks[i]
		if got.Host != want.Host || got.TP != want.TP || got.PP != want.PP || got.DP != want.DP {
			t.Errorf("rank %d: host %s coord %d/%d/%d, want %s %d/%d/%d", want.Rank, got.Host, got.TP, got.PP, got.DP, want.Host, want.TP, want.PP, want.DP)
		}
		if math.Abs(got.BubbleFraction-want.BubbleFraction) > 0.01 {
			t.Errorf("rank %d: bubble fraction %.4f, want %.4f", want.Rank, got.BubbleFraction, want.BubbleFraction)
		}
		for ax, w := range want.ExposedNs {
			if !sampletest.CloseTo(got.ExposedNs[ax], w) || !sampletest.CloseTo(got.CommNs[ax], want.CommNs[ax]) {
				t.Errorf("rank %d %s: comm %d exposed %d, want %d %d", want.Rank, ax, got.CommNs[ax], got.ExposedNs[ax], want.CommNs[ax], w)
			}
		}
	}
}
