package html

import (
	"bytes"
	stdhtml "html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/prose"

	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

var refs = regexp.MustCompile(`(?i)(?:src|href|xlink:href)\s*=\s*["']?([^"'\s>]*)|url\(\s*["']?([^"')]*)`)

func TestPageIsSelfContained(t *testing.T) {
	r := fixture.Result(fixture.Small())
	files, err := Write(t.TempDir(), r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(files.HTML)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	checkSelfContained(t, page)
	if n := strings.Count(page, `<img src="data:image/png;base64,`); n != 6 {
		t.Errorf("%d embedded figures, want 6", n)
	}
	for _, want := range []string{prose.Headline(r, r.Findings[1]), "TP 2 × PP 4 × DP 2", "1f1b, 8 microbatches", "16 files (16 kineto)"} {
		if !strings.Contains(page, stdhtml.EscapeString(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// checkSelfContained fails on a reference that is not a data: URI or an
// anchor, and on scripts, links, imports and frames.
func checkSelfContained(t *testing.T, page string) {
	t.Helper()
	for _, m := range refs.FindAllStringSubmatch(page, -1) {
		ref := m[1] + m[2]
		if !strings.HasPrefix(ref, "data:") && !strings.HasPrefix(ref, "#") {
			t.Errorf("external reference %q", ref)
		}
	}
	for _, bad := range []string{"<script", "<link", "@import", "<iframe"} {
		if strings.Contains(strings.ToLower(page), bad) {
			t.Errorf("page contains %s", bad)
		}
	}
}

var mdLinks = regexp.MustCompile(`\]\(([^)]+)\)`)

func TestMarkdownFiguresExistBesideIt(t *testing.T) {
	dir := t.TempDir()
	files, err := Write(dir, fixture.Result(fixture.Small()))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(files.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	links := mdLinks.FindAllStringSubmatch(string(b), -1)
	if len(links) != 12 || len(files.Figures) != 12 {
		t.Fatalf("%d links and %d figure files, want 12 (6 PNG + 6 SVG)", len(links), len(files.Figures))
	}
	for _, l := range links {
		st, err := os.Stat(filepath.Join(dir, l[1]))
		if err != nil || st.Size() < 1000 {
			t.Errorf("link %s: %v (size %v)", l[1], err, st)
		}
	}
}

func TestMarkdownEscapesTableCells(t *testing.T) {
	r := fixture.Result(fixture.Small())
	r.Tool = "tpptrace a|b"
	r.Findings[0].Headline = result.Text("x_y *z*")
	var b strings.Builder
	if err := Markdown(&b, r, nil, "figures"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`| tool | tpptrace a\|b |`, `x\_y \*z\*`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

// TestStageTablesSplitTheBubble: both stage tables give the bubble's PP
// transfer and PP wait, not the exposed PP time that is mostly the wait.
func TestStageTablesSplitTheBubble(t *testing.T) {
	r := fixture.Result(fixture.Small())
	st := r.Stages[len(r.Stages)-1]
	st.BubblePPWaitNs, st.BubblePPTransferNs, st.ExposedNs["PP"] = 7_250_000, 125_000, 9_990_000
	r.Stages[len(r.Stages)-1] = st
	var md, page strings.Builder
	if err := Markdown(&md, r, nil, "figures"); err != nil {
		t.Fatal(err)
	}
	if err := Page(&page, r, nil); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": md.String(), "page": page.String()} {
		if !strings.Contains(out, "7.25 ms") || !strings.Contains(out, "125 µs") || strings.Contains(out, "9.99 ms") {
			t.Errorf("%s: stage table lacks the PP wait 7.25 ms or transfer 125 µs, or shows exposed PP 9.99 ms", name)
		}
	}
}

func TestPageEscapesText(t *testing.T) {
	r := fixture.Result(fixture.Small())
	r.Findings[0].Headline = result.Text(`<script>alert("x")</script>`)
	var b strings.Builder
	if err := Page(&b, r, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<script>") {
		t.Error("a finding's text was not escaped")
	}
}

// BenchmarkReport64Ranks renders the full report (every figure in PNG and
// SVG, the HTML page and the Markdown) of a 64-rank, 16-microbatch job.
func BenchmarkReport64Ranks(b *testing.B) {
	r := fixture.Result(fixture.Large())
	dir := b.TempDir()
	for b.Loop() {
		if _, err := Write(dir, r); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPageGroupsSkippedInput: the page lists skipped input one line per
// reason, as the text report does, not one line per file.
func TestPageGroupsSkippedInput(t *testing.T) {
	r := fixture.Result(fixture.Small())
	for _, f := range []string{"rank-0.json", "rank-1.json", "rank-2.json"} {
		r.Skipped = append(r.Skipped, result.Skipped{Source: f, Offset: -1, Reason: `category "Trace" is not used`, Count: 1})
	}
	var page bytes.Buffer
	if err := Page(&page, r, nil); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	if strings.Count(html, "is not used") != 1 || !strings.Contains(html, "3 files") || strings.Contains(html, "rank-1.json") {
		t.Fatalf("skipped input not grouped by reason:\n%s", html[strings.Index(html, "Input not analysed"):][:400])
	}
}
