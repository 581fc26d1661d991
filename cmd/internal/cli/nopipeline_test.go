package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
	"github.com/tpptrace/tpptrace/samples/shared"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// pipelineWords are what a job without a pipeline (PP = 1) must not be
// described in.
var pipelineWords = regexp.MustCompile(`(?i)bubble|stage|microbatch|schedule|interleav`)

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/internal/cli -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// analyzeText runs 'analyze' on path and returns its text, with path
// written as $SHARED so that the golden does not hold this machine's folder.
func analyzeText(t *testing.T, path, sharedDir string) string {
	t.Helper()
	code, stdout, stderr := execCLI(t, "analyze", path)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	return strings.ReplaceAll(stdout, sharedDir, "$SHARED")
}

// checkWords fails on a pipeline word in text and on a wanted line missing.
func checkWords(t *testing.T, what, text string, want ...string) {
	t.Helper()
	if w := pipelineWords.FindAllString(text, -1); len(w) > 0 {
		t.Errorf("%s of a job without a pipeline holds %q:\n%s", what, w, text)
	}
	for _, s := range want {
		if !strings.Contains(text, s) {
			t.Errorf("%s lacks %q:\n%s", what, s, text)
		}
	}
}

// TestAnalyzeDLRMInItsOwnWords: the real 8-rank DLRM job (PP = 1, one
// default group carrying the dense all-reduce and the embedding
// all-to-all) is described per rank, with no pipeline word; its
// all-to-all is A2A, not DP, and its remedy names no DP flag.
func TestAnalyzeDLRMInItsOwnWords(t *testing.T) {
	root := shared.Dir(t)
	dir := filepath.Join(root, "traces", "kineto", "param_dlrm_8rank")
	out := analyzeText(t, dir, root)
	checkWords(t, "text", out, "· no pipeline ·", "  rank  compute ms  idle ms    idle  exp DP ms  exp A2A ms\n",
		"\n     7  ", "\n  mean  ", "exposed all-to-all (A2A", "idle GPU", "late rank: rank 7")
	for _, bad := range []string{"DP all_to_all", "exp TP ms"} {
		if strings.Contains(out, bad) {
			t.Errorf("text holds %q:\n%s", bad, out)
		}
	}
	checkA2ARemedy(t, dir)
	golden(t, "analyze_dlrm.golden", []byte(out))
}

// checkA2ARemedy: the A2A finding's remedy is about the exchange, not
// the gradient sync; no finding is a pipeline one.
func checkA2ARemedy(t *testing.T, dir string) {
	t.Helper()
	res := analyzeJSON(t, dir)
	var a2a bool
	for _, f := range res.Findings {
		switch f.Kind {
		case vocab.KindExposedA2A:
			a2a = true
			if strings.Contains(f.Remedy, "overlap_grad_reduce") || strings.Contains(f.Remedy, "gradient") {
				t.Errorf("A2A remedy %q speaks of the gradient sync", f.Remedy)
			}
		case vocab.KindBubble, vocab.KindImbalance, vocab.KindExposedPP:
			t.Errorf("pipeline finding %s in a job without a pipeline", f.Kind)
		}
	}
	if !a2a {
		t.Errorf("no %s finding among %d", vocab.KindExposedA2A, len(res.Findings))
	}
}

func analyzeJSON(t *testing.T, args ...string) *result.Result {
	t.Helper()
	code, stdout, stderr := execCLI(t, append([]string{"analyze", "--json"}, args...)...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestReportDLRMInItsOwnWords: the Markdown and HTML reports of the DLRM
// job have no pipeline word (outside the page's style sheet) and a rank
// table with an A2A column.
func TestReportDLRMInItsOwnWords(t *testing.T) {
	dir := shared.Dir(t, "traces", "kineto", "param_dlrm_8rank")
	out := t.TempDir()
	if code, _, stderr := execCLI(t, "report", "-o", out, dir); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkWords(t, "report.md", string(md), "| pipeline | none (PP = 1) |", "## Ranks", "| rank | compute | idle GPU | idle share | exposed DP | exposed A2A |",
		"## Per-rank breakdown")
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(page), "</style>")
	checkWords(t, "report.html", regexp.MustCompile(`base64,[^"]*`).ReplaceAllString(body, ""), "<h2>Ranks</h2>", "<th>exposed A2A</th>")
}

// TestAnalyzeNsysSingleGPUInItsOwnWords: the nvFuser Nsight Systems
// export is one GPU: one rank row, no communication column, the idle GPU
// finding, no pipeline word.
func TestAnalyzeNsysSingleGPUInItsOwnWords(t *testing.T) {
	root := shared.Dir(t)
	file := filepath.Join(root, "traces", "nsys", "NVIDIA-Fuser_report1.sqlite")
	if _, err := os.Stat(file); err != nil {
		t.Skipf("%s absent: %v", file, err)
	}
	out := analyzeText(t, file, root)
	checkWords(t, "text", out, "1 rank · TP1 PP1 DP1", "· no pipeline ·", "  rank  compute ms  idle ms    idle\n", "\n     0  ", "idle GPU")
	if strings.Contains(out, "exp ") || strings.Contains(out, "mean ") {
		t.Errorf("one GPU that communicates nothing gets an exposed column or a mean row:\n%s", out)
	}
	golden(t, "analyze_nsys_nvfuser.golden", []byte(out))
}

// TestLateRankScenarioInItsOwnWords: the generated late-rank job (TP2 PP1
// DP4) is described per rank, rank 5 the most idle, with no pipeline word
// in the text or in any finding.
func TestLateRankScenarioInItsOwnWords(t *testing.T) {
	code, out, stderr := execCLI(t, "analyze", "--sample", "late-rank")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkWords(t, "text", out, "· no pipeline ·", "  rank  compute ms  idle ms", "exp TP ms  exp DP ms", "late rank: rank 5")
	res := analyzeJSON(t, "--sample", "late-rank")
	for _, f := range res.Findings {
		if w := pipelineWords.FindAllString(prose.Headline(res, f)+" "+strings.Join(prose.Evidence(res, f), " ")+" "+f.Remedy, -1); len(w) > 0 {
			t.Errorf("finding %s holds %q: %+v", f.Kind, w, f)
		}
	}
}
