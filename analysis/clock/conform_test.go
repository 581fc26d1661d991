package clock_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/sampletest"
	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/tpptrace/tpptrace/analysis/clock"
	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
)

// TestAlignOnGeneratedJobs recovers the planted host offsets of generated
// jobs within 20 µs, slow ranks and metadata-less p2p included.
func TestAlignOnGeneratedJobs(t *testing.T) {
	for _, name := range []string{"clock-skew", "p2p-nometa", "p2p-nometa-skewed", "balanced-1f1b", "default", "slow-rank"} {
		t.Run(name, func(t *testing.T) {
			j := simulate(t, name)
			if _, err := layout.Infer(j.Trace, layout.Flags{}); err != nil {
				t.Fatal(err)
			}
			inst, st := clock.MatchStats(j.Trace)
			o := clock.Align(j.Trace, inst)
			if len(o.Warnings) > 0 || o.Method != "collective-end" {
				t.Fatalf("method %q warnings %v (stats %+v)", o.Method, o.Warnings, st)
			}
			var worst, planted int64
			for _, r := range j.Truth.Ranks {
				worst = max(worst, abs(o.Of(int32(r.Rank))-r.ClockOffsetNs))
				planted = max(planted, abs(r.ClockOffsetNs))
			}
			if strings.Contains(name, "skew") && planted < 100_000 {
				t.Fatalf("scenario planted offsets of at most %d ns; the test needs skew", planted)
			}
			t.Logf("%d instances (%+v), worst error %d ns, residual %d ns", len(inst), st, worst, o.ResidualNs)
			if worst > 20_000 {
				t.Errorf("worst offset error %d ns, want ≤ 20 µs", worst)
			}
		})
	}
}

// simulate runs a scenario; "p2p-nometa-skewed" is p2p-nometa on hosts of
// two GPUs with ±300 µs clocks, so that the metadata-less pipeline links
// carry the alignment across hosts.
func simulate(tb testing.TB, name string) *samples.Job {
	tb.Helper()
	base, skewed := strings.CutSuffix(name, "-skewed")
	cfg := sampletest.Config(tb, base)
	if skewed {
		cfg.GPUsPerHost, cfg.MaxHostOffsetNs, cfg.Seed = 2, 300_000, 11
	}
	return sampletest.Simulate(tb, cfg)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestAlignOnRealDLRM: without collective metadata nothing can be matched;
// Align must say so and leave every offset at 0 rather than guess.
func TestAlignOnRealDLRM(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(shared.Dir(t, "traces", "kineto", "param_dlrm_8rank"), "*.json"))
	tr, err := kineto.Read(context.Background(), files, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := layout.Infer(tr, layout.Flags{}); err != nil {
		t.Fatal(err)
	}
	inst, st := clock.MatchStats(tr)
	o := clock.Align(tr, inst)
	t.Logf("DLRM: %d instances, stats %+v, method %s, residual %d, warnings %d", len(inst), st, o.Method, o.ResidualNs, len(o.Warnings))
	// The 8 ranks ran on one host, so one clock: every offset is ~0, and
	// the matched ends agree to a few µs once aligned.
	if len(inst) == 0 || len(o.ByRank) != 8 || len(o.Unaligned) > 0 {
		t.Fatalf("%d instances, %d ranks with offsets, unaligned %v: the 8 ranks were not aligned", len(inst), len(o.ByRank), o.Unaligned)
	}
	for r, off := range o.ByRank {
		if off > 20e3 || off < -20e3 {
			t.Errorf("rank %d offset %d ns on a one-host job", r, off)
		}
	}
	if o.ResidualNs > 5e3 {
		t.Errorf("residual %d ns after alignment, want a few µs", o.ResidualNs)
	}
}

func BenchmarkMatchAlignBig64(b *testing.B) {
	j := simulate(b, "big-64")
	if _, err := layout.Infer(j.Trace, layout.Flags{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		clock.Align(j.Trace, clock.Match(j.Trace))
	}
}
