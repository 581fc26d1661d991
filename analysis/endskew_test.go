package analysis

import (
	"fmt"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// clockFigures is what alignment gives on one generated job: the worst
// |offset − planted| over the ranks and the residual Analyze reports.
type clockFigures struct {
	worst, planted, residual int64
	matched                  int
}

func (f clockFigures) String() string {
	return fmt.Sprintf("worst offset error %d ns (planted up to %d ns), residual %d ns over %d instances", f.worst, f.planted, f.residual, f.matched)
}

func measureClock(res *result.Result, tr samples.Truth) clockFigures {
	f := clockFigures{residual: res.Clock.ResidualNs, matched: res.Clock.Matched}
	for i, want := range tr.Ranks {
		f.worst = max(f.worst, abs(res.Ranks[i].ClockOffsetNs-want.ClockOffsetNs))
		f.planted = max(f.planted, abs(want.ClockOffsetNs))
	}
	return f
}

// TestClockResidualOfEndSkew: the generator's members end a uniform draw in
// [0, EndSkewNs) after the common end, as NCCL's do; on every scenario the
// planted offsets still come back within 20 µs, and the residual is no
// longer 0 but of the order of the skew: > 0 and < 2·EndSkewNs.
func TestClockResidualOfEndSkew(t *testing.T) {
	for _, sc := range samples.Scenarios {
		if sc.Name == "big-64" {
			continue // benchmarks only; its alignment is BenchmarkMatchAlignBig64's
		}
		t.Run(sc.Name, func(t *testing.T) {
			job := sampletest.Job(t, sc.Name)
			skew := job.Config.EndSkewNs
			if skew <= 0 {
				t.Fatalf("scenario %s has no end skew", sc.Name)
			}
			f := measureClock(mustAnalyze(t, job.Trace), job.Truth)
			t.Logf("%s (end skew %d ns): %v", sc.Name, skew, f)
			if f.worst > 20_000 {
				t.Errorf("worst offset error %d ns, want ≤ 20 µs", f.worst)
			}
			if f.residual <= 0 || f.residual >= 2*skew {
				t.Errorf("residual %d ns, want in (0, %d) for an end skew of %d ns", f.residual, 2*skew, skew)
			}
		})
	}
}

// TestClockDegradesGracefullyWithEndSkew sweeps the end skew of clock-skew
// (±300 µs host offsets) from 0 to 50 µs: with none the ends coincide and
// the residual is exactly 0; with more it grows with the skew, staying in
// [skew/10, skew/2] (the median |end − mean end| of uniform draws is about
// 0.15·skew for pairs, 0.25·skew for larger groups), and the offsets
// degrade gracefully: within 20 µs and within skew/4 + 1 µs of the truth.
func TestClockDegradesGracefullyWithEndSkew(t *testing.T) {
	var prev int64 = -1
	for _, skew := range []int64{0, 3_000, 10_000, 50_000} {
		cfg := sampletest.Config(t, "clock-skew")
		cfg.EndSkewNs = skew
		job := sampletest.Simulate(t, cfg)
		f := measureClock(mustAnalyze(t, job.Trace), job.Truth)
		t.Logf("end skew %5d ns: %v", skew, f)
		if skew == 0 && f.residual != 0 || skew > 0 && (f.residual < skew/10 || f.residual > skew/2) {
			t.Errorf("end skew %d ns: residual %d ns, want in [%d, %d]", skew, f.residual, skew/10, skew/2)
		}
		if f.residual <= prev {
			t.Errorf("end skew %d ns: residual %d ns, not above %d ns at the smaller skew", skew, f.residual, prev)
		}
		if f.worst > min(20_000, skew/4+1_000) {
			t.Errorf("end skew %d ns: worst offset error %d ns, want ≤ min(20 µs, skew/4 + 1 µs)", skew, f.worst)
		}
		prev = f.residual
	}
}
