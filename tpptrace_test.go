package tpptrace

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// jsonOf is res as `analyze --json` writes it.
func jsonOf(t *testing.T, res *result.Result) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.JSON(&b, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// analyzed opens inputs with opts and analyses them with aopts.
func analyzed(t *testing.T, inputs []string, opts Options, aopts AnalyzeOptions) (*Trace, *result.Result) {
	t.Helper()
	ctx := context.Background()
	tr, err := Open(ctx, inputs, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	res, err := tr.Analyze(ctx, aopts)
	if err != nil {
		t.Fatal(err)
	}
	return tr, res
}

// TestAnalyzeAgainIsAFreshAnalysis: Analyze annotates the trace, yet a
// second analysis, after one with another layout, equals the first.
func TestAnalyzeAgainIsAFreshAnalysis(t *testing.T) {
	tr, first := analyzed(t, nil, Options{Sample: "balanced-1f1b"}, AnalyzeOptions{})
	want := jsonOf(t, first)
	ctx := context.Background()
	other, err := tr.Analyze(ctx, AnalyzeOptions{Layout: layout.Flags{TP: 4, PP: 2, DP: 1}})
	if err != nil || other.Layout.TP != 4 || other.Layout.By != "flags" {
		t.Fatalf("--tp 4 --pp 2 --dp 1: %+v, %v", other.Layout, err)
	}
	again, err := tr.Analyze(ctx, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(jsonOf(t, again), want) {
		t.Error("a second analysis with the first options differs from the first")
	}
}

// TestOpenRefusesWhatItCannotRead: both a sample and inputs, neither, or
// an unknown scenario are errors; the last matches ErrUnknownSample and
// reads as the samples' own message.
func TestOpenRefusesWhatItCannotRead(t *testing.T) {
	ctx := context.Background()
	if _, err := Open(ctx, []string{"x"}, Options{Sample: "slow-rank"}); err == nil {
		t.Error("a sample and an input were taken")
	}
	if _, err := Open(ctx, nil, Options{}); err == nil {
		t.Error("no inputs were taken")
	}
	_, err := Open(ctx, nil, Options{Sample: "nosuch"})
	if !errors.Is(err, ErrUnknownSample) || !strings.Contains(err.Error(), `unknown scenario "nosuch"`) {
		t.Errorf("unknown scenario: %v", err)
	}
	if _, err := Open(ctx, []string{filepath.Join(t.TempDir(), "missing")}, Options{NoCache: true}); err == nil || errors.Is(err, ErrUnknownSample) {
		t.Errorf("a missing input: %v", err)
	}
}

// TestResultFileIsTakenAsItIs: a Result written as JSON opens as that
// Result, with no trace; --tokens-per-step recomputes its throughput.
func TestResultFileIsTakenAsItIs(t *testing.T) {
	_, res := analyzed(t, nil, Options{Sample: "balanced-1f1b"}, AnalyzeOptions{})
	path := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(path, jsonOf(t, res), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, back := analyzed(t, []string{path}, Options{}, AnalyzeOptions{})
	if tr.Model() != nil || !bytes.Equal(jsonOf(t, back), jsonOf(t, res)) {
		t.Fatal("the Result file did not open as the Result written")
	}
	_, tok := analyzed(t, []string{path}, Options{}, AnalyzeOptions{Model: analysis.Model{TokensPerStep: 1e6}})
	if want := 1e6 / (float64(res.PeriodNs) / 1e9); tok.TokensPerS != want {
		t.Errorf("tokens/s %g, want %g", tok.TokensPerS, want)
	}
	if _, err := tr.WhatIfGraph(context.Background(), AnalyzeOptions{}); err == nil {
		t.Error("a Result file gave a step graph")
	}
}

// TestCacheDirIsUsedAndNoCacheLeavesNone: a load through CacheDir leaves
// an entry there that the next load reads back to the same Result;
// NoCache writes nothing.
func TestCacheDirIsUsedAndNoCacheLeavesNone(t *testing.T) {
	in := filepath.Join(t.TempDir(), "job")
	if err := os.CopyFS(in, os.DirFS("samples/default")); err != nil {
		t.Fatal(err)
	}
	none := t.TempDir()
	_, plain := analyzed(t, []string{in}, Options{NoCache: true, CacheDir: none}, AnalyzeOptions{})
	if n := entries(t, none); n != 0 {
		t.Errorf("NoCache left %d entries", n)
	}
	cache := t.TempDir()
	var warns sampletest.Warnings
	first, _ := analyzed(t, []string{in}, Options{CacheDir: cache, Warn: warns.Add}, AnalyzeOptions{})
	first.Close()
	if n := entries(t, cache); n == 0 || warns.String() != "" {
		t.Fatalf("cache has %d entries; warnings %q", n, warns.String())
	}
	_, cached := analyzed(t, []string{in}, Options{CacheDir: cache}, AnalyzeOptions{})
	if !bytes.Equal(jsonOf(t, cached), jsonOf(t, plain)) {
		t.Error("the cached trace analyses differently")
	}
}

func entries(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// TestWarningsReachWarnAndNilIsSafe: a file no format reads beside the
// traces is a warning on Warn, and without Warn the load still works.
func TestWarningsReachWarnAndNilIsSafe(t *testing.T) {
	in := filepath.Join(t.TempDir(), "job")
	if err := os.CopyFS(in, os.DirFS("samples/default")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "rank-99.pt.trace.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	var warns sampletest.Warnings
	analyzed(t, []string{in}, Options{NoCache: true, Warn: warns.Add}, AnalyzeOptions{})
	if !strings.Contains(warns.String(), "rank-99.pt.trace.json") {
		t.Errorf("no warning names the bad file: %q", warns.String())
	}
	analyzed(t, []string{in}, Options{NoCache: true}, AnalyzeOptions{})
}

// TestModuleVersion: the version is this module's, as the main module or
// as a dependency, and "devel" from a checkout.
func TestModuleVersion(t *testing.T) {
	for _, c := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.3"}}, "v1.2.3"},
		{debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}}, "devel"},
		{debug.BuildInfo{Main: debug.Module{Path: "example.com/ci", Version: "v9.9.9"}}, "devel"},
		{debug.BuildInfo{Main: debug.Module{Path: "example.com/ci", Version: "v9.9.9"},
			Deps: []*debug.Module{{Path: "golang.org/x/sync", Version: "v0.1.0"}, {Path: modulePath, Version: "v0.4.0"}}}, "v0.4.0"},
	} {
		if got := moduleVersion(&c.bi); got != c.want {
			t.Errorf("%s %s with %d deps: %q, want %q", c.bi.Main.Path, c.bi.Main.Version, len(c.bi.Deps), got, c.want)
		}
	}
}
