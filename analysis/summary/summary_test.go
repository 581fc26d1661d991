package summary

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
	"github.com/tpptrace/tpptrace/samples/shared"
)

func analysed(t *testing.T, name string) (*samples.Job, *result.Result) {
	t.Helper()
	job := sampletest.Job(t, name)
	res, err := analysis.Analyze(context.Background(), job.Trace, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return job, res
}

// TestBreakdownHTAParity: `breakdown --hta` gives HTA's temporal
// breakdown percentages and overlap within 0.01 percentage points of the
// oracle files run_hta.py wrote from the same traces.
func TestBreakdownHTAParity(t *testing.T) {
	kdir := shared.Dir(t, "traces", "kineto")
	for _, set := range shared.HTASets {
		t.Run(set, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(kdir, set, "*"))
			tr, err := kineto.Read(context.Background(), files, source.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[int]RankBreakdown{}
			for _, b := range Breakdown(tr, Window{All: true}, true) {
				got[b.Rank] = b
			}
			o := shared.ReadHTAOracle(t, set)
			for _, row := range o.Results.Temporal {
				b := got[int(row["rank"])]
				for _, f := range []struct {
					name string
					pct  float64
				}{{"idle_time_pctg", b.IdlePct}, {"compute_time_pctg", b.ComputePct}, {"non_compute_time_pctg", b.NonComputePct}} {
					if math.Abs(round2(f.pct)-row[f.name]) > 0.01+1e-9 { // HTA writes two decimals
						t.Errorf("rank %v %s = %.4f, HTA %.2f", row["rank"], f.name, f.pct, row[f.name])
					}
				}
			}
			for _, row := range o.Results.Overlap {
				want, ok := row["comp_comm_overlap_pctg"].(float64)
				if b := got[int(row["rank"].(float64))]; ok && math.Abs(round2(b.OverlapPct)-want) > 0.01+1e-9 {
					t.Errorf("rank %v overlap %.4f %%, HTA %.2f %%", row["rank"], b.OverlapPct, want)
				}
			}
		})
	}
}

// round2 rounds to two decimals, as HTA writes its percentages.
func round2(f float64) float64 { return math.Round(100*f) / 100 }

// within is |got−want| ≤ frac of want.
func within(got, want, frac float64) bool { return math.Abs(got-want) <= frac*math.Abs(want) }

// TestBreakdownOfTheStepsMatchesTruth: over the analysed steps, each
// rank's compute is the generator's compute per step times the steps.
func TestBreakdownOfTheStepsMatchesTruth(t *testing.T) {
	job, res := analysed(t, "default")
	w := StepsOf(job.Trace, res)
	if w.All || w.Steps() != len(job.Truth.Steps) {
		t.Fatalf("window of %d steps (all %v), truth %d", w.Steps(), w.All, len(job.Truth.Steps))
	}
	bs := Breakdown(job.Trace, w, false)
	if len(bs) != len(job.Truth.Ranks) {
		t.Fatalf("%d ranks, truth %d", len(bs), len(job.Truth.Ranks))
	}
	for i, b := range bs {
		want := float64(job.Truth.Ranks[i].ComputeNs) * float64(w.Steps())
		if !within(float64(b.ComputeNs), want, 0.01) || math.Abs(b.IdlePct+b.ComputePct+b.NonComputePct-100) > 1e-6 {
			t.Errorf("rank %d: compute %d ns, truth %.0f; shares %.2f+%.2f+%.2f", b.Rank, b.ComputeNs, want, b.IdlePct, b.ComputePct, b.NonComputePct)
		}
	}
}

// TestKernelsByClassMatchTruth: the compute class totals the truth's
// compute over ranks and steps; shares add to one.
func TestKernelsByClassMatchTruth(t *testing.T) {
	job, res := analysed(t, "default")
	w := StepsOf(job.Trace, res)
	rows, err := Kernels(job.Trace, w, ByClass)
	if err != nil {
		t.Fatal(err)
	}
	var want, share float64
	for _, r := range job.Truth.Ranks {
		want += float64(r.ComputeNs) * float64(w.Steps())
	}
	got := map[string]KernelRow{}
	for _, r := range rows {
		got[r.Key] = r
		share += r.Share
	}
	if c := got["compute"]; !within(float64(c.TotalNs), want, 0.01) || c.Count == 0 {
		t.Errorf("compute %+v, truth %.0f ns", c, want)
	}
	for _, k := range []string{"comm TP", "comm DP", "comm PP"} {
		if got[k].Count == 0 {
			t.Errorf("no %s kernels in %v", k, rows)
		}
	}
	if math.Abs(share-1) > 1e-9 {
		t.Errorf("shares add to %v", share)
	}
	if _, err := Kernels(job.Trace, w, "colour"); err == nil {
		t.Error("an unknown grouping was accepted")
	}
}

// tiny is one rank with kernels of 10, 20, 60 µs named a and 5 µs named
// b, and annotations "fwd" ×2 (100, 300 µs).
func tiny() *model.Trace {
	t := &model.Trace{}
	t.AddRank(model.Rank{Rank: 0})
	add := func(kind model.Kind, name string, start, dur int64) {
		t.AddEvent(model.NewEvent(0, kind, t.Names.Intern(name), start, dur))
	}
	add(model.KindAnnotation, "fwd", 0, 100e3)
	add(model.KindCompute, "a", 0, 10e3)
	add(model.KindCompute, "a", 20e3, 20e3)
	add(model.KindCompute, "b", 50e3, 5e3)
	add(model.KindCompute, "a", 60e3, 60e3)
	add(model.KindAnnotation, "fwd", 200e3, 300e3)
	return t
}

func TestKernelStatsByName(t *testing.T) {
	rows, err := Kernels(tiny(), Window{All: true}, ByName)
	if err != nil || len(rows) != 2 {
		t.Fatalf("%v %v", rows, err)
	}
	a := rows[0]
	if a.Key != "a" || a.Count != 3 || a.TotalNs != 90e3 || a.MeanNs != 30e3 || a.MedNs != 20e3 || a.MinNs != 10e3 || a.MaxNs != 60e3 || !within(a.Share, 90.0/95, 1e-12) {
		t.Errorf("a: %+v", a)
	}
}

func TestNVTXRanges(t *testing.T) {
	rows := NVTX(tiny(), Window{All: true})
	if len(rows) != 1 || rows[0].Name != "fwd" || rows[0].Count != 2 || rows[0].MedNs != 200e3 || rows[0].Share != 1 {
		t.Errorf("rows %+v", rows)
	}
}

// TestNCCLPerCommunicator: on the bundled job, per-member TP time per
// step matches the truth's TP communication; wait + transfer is the time;
// bus bandwidth is positive where bytes are known.
func TestNCCLPerCommunicator(t *testing.T) {
	job, res := analysed(t, "default")
	w := StepsOf(job.Trace, res)
	rows := NCCL(job.Trace, res, w)
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	var tp float64
	for _, r := range rows {
		if r.Axis == "TP" {
			tp += float64(r.TimeNs) * float64(r.Members)
		}
		if d := r.TimeNs - r.WaitNs - r.TransferNs; d < -int64(r.Count) || d > int64(r.Count) {
			t.Errorf("%+v: wait + transfer ≠ time", r)
		}
		if r.Bytes > 0 && r.BusGBps <= 0 {
			t.Errorf("%+v: no bus bandwidth", r)
		}
	}
	var want float64
	for _, r := range job.Truth.Ranks {
		want += float64(r.CommNs["TP"]) * float64(w.Steps())
	}
	if !within(tp, want, 0.02) {
		t.Errorf("TP time %.0f ns over ranks and steps, truth %.0f", tp, want)
	}
}
