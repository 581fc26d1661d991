package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/tpptrace/tpptrace"
	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/layout"
	rpt "github.com/tpptrace/tpptrace/report"
)

// TestLibraryGivesWhatAnalyzePrints: tpptrace.Open and Trace.Analyze, with
// the options the flags name written out by hand (and the default tool
// version), give the very Result `analyze --json` prints: a directory of
// traces, flags that change reading and analysis, a sample, a Result file.
func TestLibraryGivesWhatAnalyzePrints(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "default")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "samples", "default"))); err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(t.TempDir(), "r.json")
	for _, c := range []struct {
		name  string
		args  []string
		in    []string
		opts  tpptrace.Options
		aopts tpptrace.AnalyzeOptions
	}{
		{"traces", []string{dir}, []string{dir}, tpptrace.Options{}, tpptrace.AnalyzeOptions{}},
		{"flags", []string{"--tp", "2", "--pp", "4", "--dp", "2", "--steps", "11,12", "--whatif", "--step-regex", `^ProfilerStep#(\d+)$`, dir},
			[]string{dir}, tpptrace.Options{StepRegex: regexp.MustCompile(`^ProfilerStep#(\d+)$`)},
			tpptrace.AnalyzeOptions{Layout: layout.Flags{TP: 2, PP: 4, DP: 2}, Steps: []int32{11, 12}, WhatIf: true}},
		{"sample", []string{"--sample", "slow-rank", "--tokens-per-step", "1M", "--params", "7B"}, nil,
			tpptrace.Options{Sample: "slow-rank"}, tpptrace.AnalyzeOptions{Model: analysis.Model{TokensPerStep: 1e6, Params: 7e9}}},
		{"result file", []string{"--tokens-per-step", "2M", saved}, []string{saved}, tpptrace.Options{},
			tpptrace.AnalyzeOptions{Model: analysis.Model{TokensPerStep: 2e6}}},
	} {
		if c.name == "result file" { // the Result of the traces, as a file
			code, stdout, stderr := execCLI(t, "analyze", "--json", dir)
			if code != ExitOK || os.WriteFile(saved, []byte(stdout), 0o644) != nil {
				t.Fatalf("saving the Result: exit %d: %s", code, stderr)
			}
		}
		code, want, stderr := execCLI(t, append([]string{"analyze", "--json"}, c.args...)...)
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
		}
		if got := libraryJSON(t, c.in, c.opts, c.aopts); got != want {
			t.Errorf("%s: the library's Result differs from analyze --json's (%d vs %d bytes)", c.name, len(got), len(want))
		}
	}
}

// libraryJSON is the library's Result of inputs, as JSON.
func libraryJSON(t *testing.T, inputs []string, opts tpptrace.Options, aopts tpptrace.AnalyzeOptions) string {
	t.Helper()
	ctx := context.Background()
	tr, err := tpptrace.Open(ctx, inputs, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.Analyze(ctx, aopts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rpt.JSON(&b, res); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
