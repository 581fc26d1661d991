package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// maxSkipReasons bounds the reasons listed in the text report; --json keeps every item.
const maxSkipReasons = 5

// skipGroup is the skipped input that shares one reason.
type skipGroup struct {
	reason string
	items  int64
	files  []string // distinct, in input order
}

// groupSkipped groups skipped input by reason, most files first.
func groupSkipped(sk []result.Skipped) []skipGroup {
	var gs []skipGroup
	for _, s := range sk {
		reason := strings.TrimSpace(s.Reason)
		i := slices.IndexFunc(gs, func(g skipGroup) bool { return g.reason == reason })
		if i < 0 {
			gs, i = append(gs, skipGroup{reason: reason}), len(gs)
		}
		gs[i].items += s.Count
		if !slices.Contains(gs[i].files, s.Source) {
			gs[i].files = append(gs[i].files, s.Source)
		}
	}
	slices.SortStableFunc(gs, func(a, b skipGroup) int { return cmp.Compare(len(b.files), len(a.files)) })
	return gs
}

// line says how much one reason skipped: "16 files", "6,421 items in 8 files",
// or, for one file, its name; fit for a terminal (vocab.Safe).
func (g skipGroup) line() string { return vocab.Safe(g.text()) }

func (g skipGroup) text() string {
	items := plural(g.items, "item")
	if len(g.files) == 1 {
		return fmt.Sprintf("%s: %s in %s", g.reason, items, g.files[0])
	}
	if g.items == int64(len(g.files)) {
		return fmt.Sprintf("%s: %s", g.reason, plural(int64(len(g.files)), "file"))
	}
	return fmt.Sprintf("%s: %s in %s", g.reason, items, plural(int64(len(g.files)), "file"))
}

func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// SkippedLines summarises skipped input, one line per reason, most files
// first: what every view shows (the JSON keeps each item).
func SkippedLines(sk []result.Skipped) []string {
	var out []string
	for _, g := range groupSkipped(sk) {
		out = append(out, g.line())
	}
	return out
}

// skipped lists what input was not analysed, one line per reason.
func skipped(w io.Writer, res *result.Result) {
	if len(res.Skipped) == 0 {
		return
	}
	gs := groupSkipped(res.Skipped)
	fmt.Fprintln(w, "\nskipped input (every item in --json):")
	for _, g := range gs[:min(len(gs), maxSkipReasons)] {
		fmt.Fprintf(w, "  · %s\n", g.line())
	}
	if more := len(gs) - maxSkipReasons; more > 0 {
		fmt.Fprintf(w, "  · (%d more reasons)\n", more)
	}
}
