package analysis_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// copySource is a RankSource that holds every rank's events apart from
// the cross-rank trace and hands out a copy of one rank's rows at a time,
// carrying the collective the cross-rank trace has for each of its rows:
// what a dataset read rank by rank gives (docs/memory.md).
type copySource struct {
	full  *model.Trace
	cross *model.Trace
	local []int32 // row of cross -> row in its rank's events
	reads atomic.Int64
}

// splitTrace returns the cross-rank rows of t (model.Events.CrossRank, the
// step annotations only) with every table, and a source of t's ranks.
func splitTrace(t *model.Trace, re *regexp.Regexp) (*model.Trace, *copySource) {
	cross := *t
	cross.Events = model.Events{}
	src := &copySource{full: t, cross: &cross}
	first := int32(0)
	step := analysis.StepAnnotation(re)
	for i := range t.Events.Len() {
		if i > 0 && t.Events.Rank[i] != t.Events.Rank[i-1] {
			first = int32(i)
		}
		if t.Events.CrossRank(i) && (t.Events.Kind[i] != model.KindAnnotation || step(t.Name(i))) {
			cross.Events.Append(t.Events.At(i))
			src.local = append(src.local, int32(i)-first)
		}
	}
	cross.Events.Link()
	return &cross, src
}

func (s *copySource) TimedRanks() []int32 { return s.full.Ranked().TimedRanks() }

func (s *copySource) RankEvents(rank int32) (*model.Trace, error) {
	s.reads.Add(1)
	v := *s.cross
	v.Events = model.Events{}
	lo, hi := s.full.Events.RankRange(rank)
	for i := lo; i < hi; i++ {
		v.Events.Append(s.full.Events.At(i))
	}
	v.Events.Link()
	clo, chi := s.cross.Events.RankRange(rank)
	for j := clo; j < chi; j++ {
		v.Events.Coll[s.local[j]] = s.cross.Events.Coll[j]
	}
	return &v, nil
}

func (s *copySource) Local(row int32) int32 { return s.local[row] }

// TestAnalyzeRanksEqualsAnalyze checks that the analysis of the cross-rank
// rows alone, with every rank's events read one rank at a time, gives the
// Result of the analysis of the whole trace, on scenarios that take each
// step-finding method and pipeline cue: step ranges with a cut last step,
// the DP-sync and kernel periods, batched p2p without metadata (the peers
// matched on compute kernels), interleaving and expert parallelism; and on
// every dialect the generator writes (kernel-only, Megatron, torchtitan's
// PP ranges) and the nsys export that carries only communicator hashes.
func TestAnalyzeRanksEqualsAnalyze(t *testing.T) {
	for _, name := range []string{"default", "slow-rank", "cut-last-step", "p2p-nometa", "interleaved", "moe-ep4", "late-rank"} {
		for _, dialect := range samples.Dialects {
			if dialect != samples.DialectTpptrace && name != "default" {
				continue
			}
			cfg := sampletest.Config(t, name)
			cfg.Dialect = dialect
			rankedEqualsWhole(t, name+" "+samples.DialectName(dialect), func() *model.Trace { return sampletest.Simulate(t, cfg).Trace })
		}
	}
	dir := filepath.Join(t.TempDir(), "nsys-real")
	if _, err := nsysw.WriteDir(dir, sampletest.Job(t, "default"), nsysw.Options{Dialect: nsysw.DialectReal}); err != nil {
		t.Fatal(err)
	}
	rankedEqualsWhole(t, "default nsys-real", func() *model.Trace { return sampletest.Load(t, source.Options{}, dir) })
}

// rankedEqualsWhole compares AnalyzeRanks of the cross-rank rows of a
// trace with Analyze of the whole trace; load gives a fresh trace each time
// (an analysis annotates the trace it reads).
func rankedEqualsWhole(t *testing.T, label string, load func() *model.Trace) {
	t.Helper()
	want := resultJSON(t, func() (any, error) {
		return analysis.Analyze(context.Background(), load(), analysis.Options{})
	})
	cross, src := splitTrace(load(), nil)
	if cross.Events.Len() >= src.full.Events.Len() {
		t.Fatalf("%s: the cross-rank trace holds every event (%d)", label, cross.Events.Len())
	}
	got := resultJSON(t, func() (any, error) {
		return analysis.AnalyzeRanks(context.Background(), cross, src, analysis.Options{})
	})
	if !bytes.Equal(got, want) {
		t.Errorf("%s: AnalyzeRanks differs from Analyze:\n%s", label, firstDiff(got, want))
	}
	if n := src.reads.Load(); n < int64(len(src.TimedRanks())) {
		t.Errorf("%s: %d rank reads for %d ranks", label, n, len(src.TimedRanks()))
	}
}

// TestAnalyzeRanksStepRegex: with a step regexp the cross-rank trace keeps
// the ranges it matches too, and the Result is Analyze's.
func TestAnalyzeRanksStepRegex(t *testing.T) {
	for _, expr := range []string{`^ProfilerStep#(\d+)$`, `(?i)forward`} {
		opts := analysis.Options{StepRegex: regexp.MustCompile(expr)}
		want := resultJSON(t, func() (any, error) {
			return analysis.Analyze(context.Background(), sampletest.Job(t, "default").Trace, opts)
		})
		cross, src := splitTrace(sampletest.Job(t, "default").Trace, opts.StepRegex)
		got := resultJSON(t, func() (any, error) { return analysis.AnalyzeRanks(context.Background(), cross, src, opts) })
		if !bytes.Equal(got, want) {
			t.Errorf("%s: AnalyzeRanks differs from Analyze:\n%s", expr, firstDiff(got, want))
		}
	}
}

func TestAnalyzeRanksRefusesWhatIf(t *testing.T) {
	cross, src := splitTrace(sampletest.Job(t, "slow-rank").Trace, nil)
	if _, err := analysis.AnalyzeRanks(context.Background(), cross, src, analysis.Options{WhatIf: true}); err == nil {
		t.Fatal("AnalyzeRanks with WhatIf: no error")
	}
}

func resultJSON(t *testing.T, f func() (any, error)) []byte {
	t.Helper()
	res, err := f()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(res, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b []byte) string {
	x, y := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(x), len(y)) {
		if !bytes.Equal(x[i], y[i]) {
			return "got:  " + string(x[i]) + "\nwant: " + string(y[i])
		}
	}
	return fmt.Sprintf("lengths differ: %d and %d lines", len(x), len(y))
}
