package cli

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

// TestSummaryCommandsOnTheBundledJob: each summary writes text, JSON and
// CSV of the same rows; breakdown has one row per rank of the job.
func TestSummaryCommandsOnTheBundledJob(t *testing.T) {
	for _, c := range []struct {
		args   []string
		header string // the text table's first column header
		csvID  string
	}{
		{[]string{"breakdown"}, "rank", "rank"},
		{[]string{"kernels", "--by", "class"}, "count", "class"},
		{[]string{"nccl"}, "communicator", "comm"},
		{[]string{"nvtx"}, "count", "name"},
	} {
		base := append(c.args, "--sample", "default")
		code, text, stderr := execCLI(t, base...)
		if code != ExitOK || !strings.Contains(text, "over the 4 steps analysed") || !strings.Contains(text, c.header) {
			t.Fatalf("%v: exit %d:\n%s%s", c.args, code, text, stderr)
		}
		_, js, _ := execCLI(t, append(base, "--json")...)
		var rows []map[string]any
		if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) == 0 {
			t.Fatalf("%v --json: %v\n%.300s", c.args, err, js)
		}
		_, cs, _ := execCLI(t, append(base, "--csv")...)
		recs, err := csv.NewReader(strings.NewReader(cs)).ReadAll()
		if err != nil || len(recs) != len(rows)+1 || recs[0][0] != c.csvID {
			t.Fatalf("%v --csv: %v, %d records for %d rows:\n%.300s", c.args, err, len(recs), len(rows), cs)
		}
		if c.args[0] == "breakdown" && len(rows) != 16 {
			t.Errorf("breakdown: %d rows, want 16 ranks", len(rows))
		}
	}
}

func TestSummaryUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"kernels", "--by", "colour", "--sample", "default"}, {"nvtx", "--json", "--csv", "--sample", "default"}, {"nccl"}} {
		if code, _, stderr := execCLI(t, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want 2: %s", args, code, stderr)
		}
	}
	res := saveResult(t, twoStages(100e6, 0.2))
	if code, _, stderr := execCLI(t, "kernels", res); code != ExitError || !strings.Contains(stderr, "Result file") {
		t.Errorf("a Result file: exit %d: %s", code, stderr)
	}
}

// TestBreakdownHTAThroughTheCLI: `breakdown --hta --json` on a real
// two-rank trace gives HTA's idle, compute and non-compute shares within
// 0.01 percentage points of the oracle.
func TestBreakdownHTAThroughTheCLI(t *testing.T) {
	kdir := shared.Dir(t, "traces", "kineto")
	b, err := os.ReadFile(filepath.Join(kdir, "hta_oracle", "hta_trace_filter_2rank.json"))
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		Results struct {
			Temporal []map[string]float64 `json:"temporal_breakdown"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(kdir, "hta_trace_filter_2rank"))); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := execCLI(t, "breakdown", "--hta", "--json", dir)
	var rows []struct {
		Rank          int
		IdlePct       float64 `json:"idle_pct"`
		ComputePct    float64 `json:"compute_pct"`
		NonComputePct float64 `json:"non_compute_pct"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != len(o.Results.Temporal) {
		t.Fatalf("exit %d: %s\n%.300s", code, stderr, out)
	}
	for i, want := range o.Results.Temporal {
		r := rows[i]
		for _, f := range [][2]float64{{r.IdlePct, want["idle_time_pctg"]}, {r.ComputePct, want["compute_time_pctg"]}, {r.NonComputePct, want["non_compute_time_pctg"]}} {
			if math.Abs(math.Round(100*f[0])/100-f[1]) > 0.01+1e-9 {
				t.Errorf("rank %d: %.4f %%, HTA %.2f %%", r.Rank, f[0], f[1])
			}
		}
	}
}
