package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// twoRankDir writes a two-rank Kineto job and returns its directory.
func twoRankDir(t *testing.T) string {
	t.Helper()
	in := t.TempDir()
	writeIngestFile(t, filepath.Join(in, "rank0.json"), kinetoDoc(""))
	writeIngestFile(t, filepath.Join(in, "rank1.json"), kinetoDoc(""))
	return in
}

func TestFlagsMayFollowTheInputs(t *testing.T) {
	in := twoRankDir(t)
	code, out, errs := execCLI(t, "analyze", in, "--json")
	if code != ExitOK {
		t.Fatalf("analyze DIR --json: exit %d: %s", code, errs)
	}
	var res struct {
		Schema int `json:"schema_version"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Schema == 0 {
		t.Fatalf("stdout is not a Result (%v):\n%.300s", err, out)
	}
}

func TestValueFlagAfterInputTakesItsValue(t *testing.T) {
	in := twoRankDir(t)
	ds := filepath.Join(t.TempDir(), "ds")
	if code, _, errs := execCLI(t, "ingest", in, "-o", ds, "--workers", "1"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(ds, "manifest.json")); err != nil {
		t.Fatalf("-o after the input was not taken as the output: %v", err)
	}
}

func TestWrongFlagIsReportedOnceWithoutTheLongHelp(t *testing.T) {
	code, out, errs := execCLI(t, "analyze", "--bogus", "x")
	if code != ExitUsage {
		t.Fatalf("exit %d, want %d", code, ExitUsage)
	}
	if out != "" {
		t.Errorf("a wrong flag printed the help to stdout:\n%.200s", out)
	}
	if n := strings.Count(errs, "-bogus"); n != 1 {
		t.Errorf("the error names -bogus %d times, want once:\n%s", n, errs)
	}
	if !strings.Contains(errs, "usage: tpptrace analyze") || strings.Contains(errs, "Analysis steps") {
		t.Errorf("want the one-line usage only:\n%s", errs)
	}
}

func TestHelpFlagPrintsTheLongHelp(t *testing.T) {
	code, out, _ := execCLI(t, "analyze", "-h")
	if code != ExitOK || !strings.Contains(out, "Analysis steps") || !strings.Contains(out, "-fail-on") {
		t.Fatalf("exit %d, help:\n%.300s", code, out)
	}
}

func TestHelpOfAFlaglessCommandHasNoEmptyFlagsSection(t *testing.T) {
	_, out, _ := execCLI(t, "help", "version")
	if strings.Contains(out, "flags:") {
		t.Errorf("empty flags section:\n%s", out)
	}
}

func TestHelpHelpAndVersionFlag(t *testing.T) {
	if code, out, _ := execCLI(t, "help", "help"); code != ExitOK || !strings.Contains(out, "commands:") {
		t.Errorf("help help: exit %d\n%s", code, out)
	}
	if code, out, _ := execCLI(t, "--version"); code != ExitOK || !strings.HasPrefix(out, "tpptrace ") {
		t.Errorf("--version: exit %d %q", code, out)
	}
}

func TestOneRankIsSingular(t *testing.T) {
	in := t.TempDir()
	writeIngestFile(t, filepath.Join(in, "rank0.json"), kinetoDoc(""))
	code, _, errs := execCLI(t, "analyze", in)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "read 1 rank,") {
		t.Errorf("want 'read 1 rank,' in:\n%s", errs)
	}
}

func TestUnreadableNsysRepIsSaidOnce(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no nsys
	rep := filepath.Join(t.TempDir(), "r.nsys-rep")
	writeIngestFile(t, rep, "NVIDIA Tegra Profiler Report 2025@1@1@110-251135451612v0.\x00rest")
	for _, cmd := range []string{"analyze", "ingest"} {
		code, _, errs := execCLI(t, cmd, rep)
		if code != ExitError {
			t.Fatalf("%s: exit %d, want %d: %s", cmd, code, ExitError, errs)
		}
		if n := strings.Count(errs, "closed format"); n != 1 {
			t.Errorf("%s: the nsys message appears %d times, want once:\n%s", cmd, n, errs)
		}
	}
}

func TestWarningsNotRepeatedByTheErrorArePrinted(t *testing.T) {
	var w warnings
	w.Add("skipping a.nsys-rep: closed")
	w.Add("b.sqlite: process 7 names no rank")
	var errb strings.Builder
	w.flush(&Env{Stderr: &errb}, os.ErrNotExist)
	if strings.Count(errb.String(), "warning:") != 2 {
		t.Errorf("an unrelated error hid warnings:\n%s", errb.String())
	}
}

func runWithTTY(t *testing.T, tty bool, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	env := &Env{Stdout: &out, Stderr: &errb, IsTTY: tty, Getenv: func(string) string { return "" }}
	code := Run(t.Context(), args, env)
	return code, out.String(), errb.String()
}

func TestAnalysisProgressIsOneErasedLineOnATerminal(t *testing.T) {
	in := twoRankDir(t)
	code, _, errs := runWithTTY(t, true, "analyze", in)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(errs, "analysis: classify\n") || !strings.Contains(errs, "\r\033[Kanalysis: diagnose") {
		t.Errorf("analysis steps are not drawn on one line:\n%q", errs)
	}
	if !strings.HasSuffix(errs, "\r\033[K") {
		t.Errorf("the progress line is not erased at the end:\n%q", errs)
	}
}

func TestRedirectedOutputHasNoEscapes(t *testing.T) {
	in := twoRankDir(t)
	code, out, errs := runWithTTY(t, false, "analyze", in)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out+errs, "\033") || strings.Contains(errs, "\r") {
		t.Errorf("escape or carriage return without a terminal:\nstdout %q\nstderr %q", out, errs)
	}
}

func TestCompareCountsItsArguments(t *testing.T) {
	code, _, errs := execCLI(t, "compare", "a.json")
	if code != ExitUsage || !strings.Contains(errs, "got 1 argument\n") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

func TestTUILoadErrorIsKeptForTheExitCode(t *testing.T) {
	var rec loadRecord
	if rec.get() != nil {
		t.Fatal("error before any load")
	}
	rec.set(os.ErrNotExist)
	if code := report(&Env{Stderr: &strings.Builder{}}, tuiCmd, rec.get()); code != ExitError {
		t.Errorf("a failed TUI load exits %d, want %d", code, ExitError)
	}
}
