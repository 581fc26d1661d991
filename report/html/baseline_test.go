package html

import (
	stdhtml "html"
	"os"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

// regressedPair is the fixture and a copy whose stage 1 bubble (time and
// fraction) grew by a third, whose rank 9 is newly slow and whose step is 2 % faster.
func regressedPair() (*result.Result, *result.Result) {
	base, cur := fixture.Result(fixture.Small()), fixture.Result(fixture.Small())
	cur.Stages[1].BubbleFraction *= 4.0 / 3
	cur.Stages[1].BubbleNs = cur.Stages[1].BubbleNs * 4 / 3
	cur.SlowRanks = append(cur.SlowRanks, result.SlowRank{Rank: 9, Score: 7, ComputeExcess: 0.1})
	cur.StepNs = base.StepNs * 98 / 100
	return base, cur
}

func TestBaselineSectionInBothForms(t *testing.T) {
	base, cur := regressedPair()
	c := report.NewComparison("base.json", base, "new.json", cur, 0.05)
	files, err := WriteWith(t.TempDir(), cur, Options{Baseline: c})
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(files.HTML)
	if err != nil {
		t.Fatal(err)
	}
	checkSelfContained(t, string(page))
	section := sectionOf(t, string(page), `<h2 id="baseline">`, "<h2>Findings</h2>")
	for _, want := range []string{"3 regressions beyond 5.0 %", `<tr class="regressed"><td>stage 1 bubble</td>`, `<tr class="regressed"><td>slow rank 9</td>`, "base.json"} {
		if !strings.Contains(section, stdhtml.EscapeString(want)) && !strings.Contains(section, want) {
			t.Errorf("the section lacks %q:\n%s", want, section)
		}
	}
	if i, j := strings.Index(section, `class="regressed"`), strings.Index(section, "<td>step</td>"); i < 0 || j < i {
		t.Error("the unchanged step comes before the regressions")
	}
	md, err := os.ReadFile(files.Markdown)
	if err != nil || !strings.Contains(string(md), "## "+baselineTitle+"\n\n**3 regressions beyond 5.0 %**") ||
		!strings.Contains(string(md), "| **slow rank 9** | – | named | new |  | **REGRESSION** |") {
		t.Errorf("the Markdown report lacks the comparison (%v):\n%s", err, md)
	}
}

func TestNoBaselineNoSection(t *testing.T) {
	var page, md strings.Builder
	r := fixture.Result(fixture.Small())
	if err := Page(&page, r, nil); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, r, nil, "figures"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page.String(), baselineTitle) || strings.Contains(md.String(), baselineTitle) {
		t.Error("a report without a baseline has the comparison section")
	}
}

func sectionOf(t *testing.T, page, from, to string) string {
	t.Helper()
	_, rest, ok := strings.Cut(page, from)
	section, _, ok2 := strings.Cut(rest, to)
	if !ok || !ok2 {
		t.Fatalf("no section from %q to %q", from, to)
	}
	return section
}

// TestBaselineSectionSaysWhichKernelsChanged: the page lists the kernels
// added and the spread column.
func TestBaselineSectionSaysWhichKernelsChanged(t *testing.T) {
	base, cur := regressedPair()
	base.Kernels = []result.KernelStat{{Name: "gemm", TimeNs: 10e6}}
	cur.Kernels = []result.KernelStat{{Name: "gemm", TimeNs: 10e6}, {Name: "flash_fwd", TimeNs: 3e6}}
	var page strings.Builder
	if err := PageWith(&page, cur, nil, Options{Baseline: report.NewComparison("base.json", base, "new.json", cur, 0.05)}); err != nil {
		t.Fatal(err)
	}
	section := sectionOf(t, page.String(), `<h2 id="baseline">`, "<h2>Findings</h2>")
	if !strings.Contains(section, "<li>kernels added (1): flash_fwd 3.00 ms</li>") || !strings.Contains(section, "<th>spread</th>") {
		t.Errorf("section:\n%s", section)
	}
}
