package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/tpptrace/tpptrace/report/html"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code = Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

func TestReportOfTheBundledSample(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, "report", "--sample", "default", "-o", dir); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"report.html", "report.md", "figures/timeline.png", "figures/comms.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// The page and the Markdown carry the sample's diagnosis: its truth plants
	// rank 5 slow and makes stage 3 the bottleneck.
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	for _, want := range []string{"slow rank: rank 5", "stage imbalance: stage 3", "1f1b"} {
		if !strings.Contains(string(md), want) || !strings.Contains(string(page), want) {
			t.Errorf("the report does not say %q", want)
		}
	}
	f, err := os.Open(filepath.Join(dir, "figures", "timeline.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() < 400 || img.Bounds().Dy() < 200 {
		t.Errorf("timeline.png is no picture of a timeline: %v", err)
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "figures", "comms.svg"))
	if !strings.Contains(string(svg), "<svg") {
		t.Error("comms.svg is not SVG")
	}
}

func TestReportFromAResultFile(t *testing.T) {
	dir := t.TempDir()
	b, err := json.Marshal(fixture.Result(fixture.Small()))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "result.json")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "report", "-o", filepath.Join(dir, "out"), in); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "out", "report.html"))
	if err != nil || !strings.Contains(string(page), "rank 5 computes 30%") {
		t.Errorf("the page does not show the result's findings (%v)", err)
	}
}

func TestReportInputErrors(t *testing.T) {
	if code, _, _ := runCLI(t, "report"); code != ExitUsage {
		t.Errorf("no input: exit %d, want %d", code, ExitUsage)
	}
	if code, _, _ := runCLI(t, "report", "--sample", "default", "x.json"); code != ExitUsage {
		t.Errorf("sample and input: exit %d, want %d", code, ExitUsage)
	}
	other := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(other, []byte("not a trace"), 0o644)
	if code, _, _ := runCLI(t, "report", "-o", t.TempDir(), other); code != ExitError {
		t.Errorf("an unreadable input: exit %d, want %d", code, ExitError)
	}
}

func TestPprofOfTheBundledSample(t *testing.T) {
	code, out, stderr := runCLI(t, "pprof", "--sample", "default", "-o", "-")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	p, err := profile.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	ranks := map[string]bool{}
	for _, s := range p.Sample {
		ranks[s.Label["rank"][0]] = true
	}
	if len(ranks) != 16 || len(p.Function) < 10 {
		t.Errorf("%d ranks and %d frames in the profile", len(ranks), len(p.Function))
	}
}

func TestExportPerfettoOfTheBundledSample(t *testing.T) {
	if code, _, _ := runCLI(t, "export", "--sample", "default"); code != ExitUsage {
		t.Errorf("no format: exit %d, want %d", code, ExitUsage)
	}
	code, out, stderr := runCLI(t, "export", "--perfetto", "--sample", "default")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		TraceEvents []struct {
			Ph, Name string
			Pid      int
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	procs := map[int]bool{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" && e.Name == "process_name" {
			procs[e.Pid] = true
		}
	}
	if len(procs) != 16 {
		t.Errorf("%d processes, want one per rank (16)", len(procs))
	}
}

// BenchmarkReportBig64 renders the full report (six figures in PNG and
// SVG, the HTML page, the Markdown) of the generated 64-rank job; the
// simulation and the analysis run once, outside the timed loop.
func BenchmarkReportBig64(b *testing.B) {
	in := inputFlags{sample: "big-64"}
	r, _, err := in.load(context.Background(), &Env{Stderr: io.Discard}, nil)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for b.Loop() {
		if _, err := html.Write(dir, r); err != nil {
			b.Fatal(err)
		}
	}
}
