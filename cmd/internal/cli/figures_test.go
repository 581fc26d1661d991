package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
	"github.com/tpptrace/tpptrace/tui"
)

// TestViewsAgreeWithTheResult walks the figures the views print for the
// bundled sample and the 64-rank job and holds each to the Result field it
// shows: the text header, every cell of the stage table, every finding's
// cost and the measured exposure its summary states, the HTML page's stage
// table and findings, the TUI's job line, and compare's JSON figures.
func TestViewsAgreeWithTheResult(t *testing.T) {
	for _, in := range [][]string{{filepath.Join("..", "..", "..", "samples", "default")}, {"--sample", "big-64"}} {
		t.Run(strings.Join(in, " "), func(t *testing.T) {
			res, resFile := runJSON(t, in)
			_, text, _ := execCLI(t, append([]string{"analyze"}, in...)...)
			checkHeader(t, text, res)
			checkStageTable(t, text, res)
			checkFindings(t, text, res)
			checkPage(t, in, res)
			if line := tui.JobLine(res); !strings.Contains(line, vocab.Duration(res.StepNs)) {
				t.Errorf("TUI job line %q lacks the step %s", line, vocab.Duration(res.StepNs))
			}
			checkCompareFigures(t, resFile, res)
		})
	}
}

func runJSON(t *testing.T, in []string) (*result.Result, string) {
	t.Helper()
	code, out, stderr := execCLI(t, append([]string{"analyze", "--json"}, in...)...)
	if code != ExitOK {
		t.Fatalf("analyze --json: exit %d: %s", code, stderr)
	}
	res := &result.Result{}
	if err := json.Unmarshal([]byte(out), res); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return res, path
}

func checkHeader(t *testing.T, text string, res *result.Result) {
	t.Helper()
	head, _, _ := strings.Cut(text, "\n")
	if !strings.Contains(head, "step "+vocab.Duration(res.StepNs)) {
		t.Errorf("header %q lacks step %s", head, vocab.Duration(res.StepNs))
	}
	if p := vocab.Duration(res.PeriodNs); res.PeriodNs > 0 && p != vocab.Duration(res.StepNs) && !strings.Contains(head, "period "+p) {
		t.Errorf("header %q lacks period %s", head, p)
	}
}

// checkStageTable holds every cell of the text's stage table to the
// Result's stage.
func checkStageTable(t *testing.T, text string, res *result.Result) {
	t.Helper()
	lines := strings.Split(text, "\n")
	at := 0
	for at < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[at]), "stage  ranks") {
		at++
	}
	rows := 0
	for _, line := range lines[min(at+1, len(lines)):] {
		f := strings.Fields(line)
		if len(f) < 13 || !isInt(strings.TrimSuffix(f[0], "*")) || rows == len(res.Stages) {
			break
		}
		s := res.Stages[rows]
		want := []string{vocab.Millis(s.ComputeNs), vocab.Millis(s.ForwardNs), vocab.Millis(s.BackwardNs), vocab.Millis(s.BubbleNs),
			vocab.Percent(s.BubbleFraction), vocab.Percent(s.IdealBubbleFraction), vocab.Millis(s.ExposedNs["TP"]),
			vocab.Millis(s.BubblePPTransferNs), vocab.Millis(s.ExposedNs["DP"])}
		got := []string{f[2], f[3], f[4], f[5], f[6] + " " + f[7], f[8] + " " + f[9], f[10], f[11], f[12]}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("stage %d column %d: text %s, Result %s", s.Stage, i, got[i], want[i])
			}
		}
		rows++
	}
	if rows != len(res.Stages) {
		t.Errorf("the text's stage table has %d rows, the Result %d stages", rows, len(res.Stages))
	}
}

func isInt(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// checkFindings: each finding's cost as the text prints it is the Result's,
// and an exposed-communication finding states the ranks' mean exposure.
func checkFindings(t *testing.T, text string, res *result.Result) {
	t.Helper()
	for i, f := range res.Findings {
		if !strings.Contains(text, prose.Headline(res, f)) {
			continue // beyond the findings the text shows
		}
		if f.CostNs > 0 && !strings.Contains(text, prose.Headline(res, f)+" — "+vocab.Duration(f.CostNs)+" ("+vocab.Percent(f.CostShare)+")") {
			t.Errorf("finding %d (%s): the text lacks its cost %s", i, f.Kind, vocab.Duration(f.CostNs))
		}
		ax, ok := strings.CutPrefix(f.Kind, "exposed_")
		if !ok || ax == "pp_comm" {
			continue
		}
		ax = strings.ToUpper(strings.TrimSuffix(ax, "_comm"))
		var sum int64
		for _, r := range res.Ranks {
			sum += r.ExposedNs[ax]
		}
		mean := sum / int64(len(res.Ranks))
		if !strings.Contains(prose.Headline(res, f), dur1(mean)) {
			t.Errorf("finding %s says %q, the ranks' mean exposed %s is %s", f.Kind, prose.Headline(res, f), ax, dur1(mean))
		}
	}
}

// dur1 is how findings write a duration (analysis/diagnose).
func dur1(ns int64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", float64(ns)/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.1f ms", float64(ns)/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.0f µs", float64(ns)/1e3)
	}
	return fmt.Sprintf("%d ns", ns)
}

// checkPage: the HTML page shows each stage's compute and each finding's
// summary as the Result has them.
func checkPage(t *testing.T, in []string, res *result.Result) {
	t.Helper()
	dir := t.TempDir()
	if code, _, stderr := execCLI(t, append([]string{"report", "-o", dir}, in...)...); code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	for _, s := range res.Stages {
		for _, v := range []string{vocab.Duration(s.ComputeNs), vocab.Duration(s.BubbleNs), vocab.Percent(s.BubbleFraction), vocab.Duration(s.ExposedNs["TP"])} {
			if !strings.Contains(string(page), ">"+v+"<") {
				t.Errorf("the page lacks stage %d's %s", s.Stage, v)
			}
		}
	}
	for _, f := range res.Findings {
		if !strings.Contains(string(page), strings.ReplaceAll(prose.Headline(res, f), "'", "&#39;")) {
			t.Errorf("the page lacks the finding %q", prose.Headline(res, f))
		}
	}
}

// checkCompareFigures: compare of a run with itself reports each exposed
// axis as the ranks' mean and the step as the Result's.
func checkCompareFigures(t *testing.T, file string, res *result.Result) {
	t.Helper()
	_, out, _ := execCLI(t, "compare", "--format", "json", file, file)
	var c struct {
		Deltas []struct {
			ID   string  `json:"id"`
			Base float64 `json:"base"`
		} `json:"deltas"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("compare JSON: %v", err)
	}
	want := map[string]float64{"step_ns": float64(res.StepNs)}
	for _, ax := range []string{"TP", "DP"} {
		var sum int64
		for _, r := range res.Ranks {
			sum += r.ExposedNs[ax]
		}
		want["exposed_"+strings.ToLower(ax)+"_ns"] = float64(sum) / float64(len(res.Ranks))
	}
	for _, d := range c.Deltas {
		if w, ok := want[d.ID]; ok {
			if d.Base < w-1 || d.Base > w+1 {
				t.Errorf("compare %s = %v, the Result says %v", d.ID, d.Base, w)
			}
			delete(want, d.ID)
		}
	}
	if len(want) > 0 {
		t.Errorf("compare lacks %v", want)
	}
}
