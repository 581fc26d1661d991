package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// twoStages is a two-stage Result with a 100 ms step and the given slow
// ranks.
func twoStages(stepNs int64, bubble0 float64, slow ...int) *result.Result {
	r := &result.Result{SchemaVersion: result.SchemaVersion, Tool: "tpptrace test", StepNs: stepNs, Layout: result.Layout{TP: 2, PP: 2, DP: 1},
		Stages: []result.StageStats{{Stage: 0, ComputeNs: 70e6, BubbleFraction: bubble0, BubbleNs: int64(bubble0 * float64(stepNs))},
			{Stage: 1, ComputeNs: 72e6, BubbleFraction: 0.1, BubbleNs: stepNs / 10}}}
	for _, s := range slow {
		r.SlowRanks = append(r.SlowRanks, result.SlowRank{Rank: s, Score: 6, ComputeExcess: 0.2})
	}
	return r
}

func saveResult(t *testing.T, r *result.Result) string {
	t.Helper()
	return writeResultFile(t, t.TempDir(), "result.json", r)
}

func TestCompareJSONExit3OnANewlySlowRank(t *testing.T) {
	base, cur := saveResult(t, twoStages(100e6, 0.2)), saveResult(t, twoStages(100e6, 0.2, 2))
	code, out, stderr := runCLI(t, "compare", "--format", "json", base, cur)
	if code != ExitRegression {
		t.Fatalf("exit %d, want 3: %s", code, stderr)
	}
	var doc struct {
		Regressions int
		Base, New   struct{ Input string }
		Deltas      []struct {
			Name      string
			Regressed bool
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if doc.Regressions != 1 || doc.Base.Input != base || doc.New.Input != cur {
		t.Errorf("regressions %d, runs %+v %+v", doc.Regressions, doc.Base, doc.New)
	}
	for _, d := range doc.Deltas {
		if d.Regressed != (d.Name == "slow rank 2") {
			t.Errorf("%s regressed: %v", d.Name, d.Regressed)
		}
	}
}

func TestCompareMarkdownExit0OnAnImprovement(t *testing.T) {
	base, cur := saveResult(t, twoStages(100e6, 0.2, 2)), saveResult(t, twoStages(90e6, 0.15))
	code, out, stderr := runCLI(t, "compare", "--format", "markdown", base, cur)
	if code != ExitOK {
		t.Fatalf("exit %d, want 0: %s\n%s", code, stderr, out)
	}
	for _, want := range []string{"**no regression beyond 5.0 %**", "| step | 100 ms | 90.0 ms | -10.0 % |  | improved |", "| slow rank 2 | named | – | gone |  | improved |", "| stage 0 bubble fraction | 20.0 % | 15.0 % | -5.0 pp |  | improved |"} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
}

func TestCompareRejectsAnUnknownFormat(t *testing.T) {
	base := saveResult(t, twoStages(100e6, 0.2))
	if code, _, _ := runCLI(t, "compare", "--format", "yaml", base, base); code != ExitUsage {
		t.Errorf("--format yaml: exit %d, want %d", code, ExitUsage)
	}
}

func TestReportWithBaseline(t *testing.T) {
	base, cur := saveResult(t, twoStages(100e6, 0.2)), saveResult(t, twoStages(100e6, 0.3, 1))
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "report", "--baseline", base, "-o", dir, cur)
	if code != ExitOK || !strings.Contains(stderr, "3 regressions beyond 5.0 %") {
		t.Fatalf("exit %d, want 0 (the report is no gate), and the verdict on stderr: %s", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(page), `<tr class="regressed"><td>stage 0 bubble</td>`) {
		t.Errorf("the page lacks the bubble regression (%v)", err)
	}
	if code, _, _ := runCLI(t, "report", "--baseline", filepath.Join(dir, "missing.json"), "-o", dir, cur); code != ExitError {
		t.Errorf("a missing baseline: exit %d, want %d", code, ExitError)
	}
}

// TestCompareRefusesALayoutChange: a 3-stage run against a 2-stage
// baseline exits 1 with the reason; --allow-different compares them.
func TestCompareRefusesALayoutChange(t *testing.T) {
	three := twoStages(100e6, 0.2)
	three.Layout.PP = 3
	three.Stages = append(three.Stages, result.StageStats{Stage: 2, ComputeNs: 70e6, BubbleFraction: 0.34, BubbleNs: 34e6})
	base, cur := saveResult(t, twoStages(100e6, 0.2)), saveResult(t, three)
	code, out, stderr := runCLI(t, "compare", base, cur)
	if code != ExitError || !strings.Contains(stderr, "layout differs: base TP2 PP2 DP1, new TP2 PP3 DP1") || out != "" {
		t.Fatalf("exit %d, want 1 with the reason:\n%s%s", code, stderr, out)
	}
	if code, out, stderr = runCLI(t, "compare", "--allow-different", base, cur); code == ExitError || !strings.Contains(out, "warning: layout differs") {
		t.Errorf("--allow-different: exit %d:\n%s%s", code, stderr, out)
	}
}

// TestCompareGateTypoIsAUsageError: an unknown --gate exits 2 listing
// the kinds.
func TestCompareGateTypoIsAUsageError(t *testing.T) {
	base := saveResult(t, twoStages(100e6, 0.2))
	code, _, stderr := runCLI(t, "compare", "--gate", "buble_fraction", base, base)
	if code != ExitUsage || !strings.Contains(stderr, "bubble_fraction, exposed") {
		t.Errorf("exit %d, want 2 with the kinds:\n%s", code, stderr)
	}
}

// TestCompareJUnitThroughTheCLI: --format junit is XML with a failure per
// regression, and the exit code still says regression.
func TestCompareJUnitThroughTheCLI(t *testing.T) {
	base, cur := saveResult(t, twoStages(100e6, 0.2)), saveResult(t, twoStages(100e6, 0.2, 2))
	code, out, _ := runCLI(t, "compare", "--format", "junit", base, cur)
	if code != ExitRegression || !strings.HasPrefix(out, "<?xml") || strings.Count(out, "<failure ") != 1 || !strings.Contains(out, `name="slow_rank[2] (slow rank 2)"`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
