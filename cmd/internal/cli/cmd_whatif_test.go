package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

func TestWhatIfSample(t *testing.T) {
	code, stdout, stderr := execCLI(t, "whatif", "--sample", "slow-rank", "--fix-rank", "3", "--scenario", "fix-rank,no-delays")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"self-check", "fix rank 3", "remove launch delays"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "balance stages") {
		t.Errorf("--scenario ran an unlisted scenario:\n%s", stdout)
	}
}

func TestWhatIfBadScenario(t *testing.T) {
	if code, _, _ := execCLI(t, "whatif", "--sample", "slow-rank", "--scenario", "fix-rank"); code != ExitUsage {
		t.Fatalf("fix-rank without --fix-rank: exit %d, want %d", code, ExitUsage)
	}
}

func TestWhatIfOpTableJSON(t *testing.T) {
	path := filepath.Join(shared.Dir(t, "traces", "bytedance_ST"), "trace-ST.parquet")
	code, stdout, stderr := execCLI(t, "whatif", "--json", path)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out whatifOut
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if r := out.Report; r == nil || len(r.TopWorkers) != 1 || r.TopWorkers[0].Rank != 7 || r.MS.M < 1.2 || r.MS.M > 1.22 {
		t.Fatalf("report %+v: want top worker rank 7 and M_S 1.219 (published)", out.Report)
	}
}

// TestAnalyzeOpTable: analyze reads an op table and reports its replay.
func TestAnalyzeOpTable(t *testing.T) {
	path := filepath.Join(shared.Dir(t, "traces", "bytedance_ST"), "trace-ST.parquet")
	code, stdout, stderr := execCLI(t, "analyze", path)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"TP1 PP4 DP2", "32 steps", "M_S 1.219", "fix the slow workers [7]"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestWhatIfMarkdown(t *testing.T) {
	code, stdout, stderr := execCLI(t, "whatif", "--format", "markdown", "--sample", "slow-rank", "--fix-rank", "3", "--scenario", "fix-rank")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "| fix rank 3 |") || !strings.Contains(stdout, "| critical path | per step |") {
		t.Errorf("markdown lacks the scenario or the critical path:\n%s", stdout)
	}
	if code, _, _ := execCLI(t, "whatif", "--format", "yaml", "--sample", "slow-rank"); code != ExitUsage {
		t.Errorf("--format yaml: exit %d, want %d", code, ExitUsage)
	}
}
