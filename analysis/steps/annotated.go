package steps

import (
	"regexp"
	"slices"
	"strconv"

	"github.com/tpptrace/tpptrace/model"
)

// annotated returns, per rank, the windows of CPU range annotations whose
// name matches re. The iteration number is re's first capture group when it
// is a number, else the last number in the name, else the range's ordinal on
// its rank. A rank with two ranges for one iteration keeps the longer.
func annotated(t *model.Trace, re *regexp.Regexp) map[int32][]Window {
	return annotatedBy(t, func(name string) int32 { return parseIter(re, name) })
}

// stepLike returns the windows of the preferred step-name family the trace
// has (StepLike), and that family; nil when it has none.
func stepLike(t *model.Trace) (map[int32][]Window, string) {
	best := ""
	seen := map[int32]bool{}
	ev := &t.Events
	for i := 0; i < ev.Len(); i++ {
		if ev.Kind[i] != model.KindAnnotation || seen[ev.Name[i]] {
			continue
		}
		seen[ev.Name[i]] = true
		if f, _, ok := StepLike(t.Names.Get(ev.Name[i])); ok && (best == "" || familyRank(f) < familyRank(best)) {
			best = f
		}
	}
	if best == "" {
		return nil, ""
	}
	return annotatedBy(t, func(name string) int32 {
		f, n, ok := StepLike(name)
		if !ok || f != best {
			return -2
		}
		return n
	}), best
}

// annotatedBy returns the windows of the CPU range annotations iterOf
// numbers: the iteration, -1 for a numberless step (numbered by its
// ordinal on the rank), -2 for a name that is no step.
func annotatedBy(t *model.Trace, iterOf func(string) int32) map[int32][]Window {
	out := map[int32][]Window{}
	byName := map[int32]int32{} // name id → iterOf
	ev := &t.Events
	for i := 0; i < ev.Len(); i++ {
		if ev.Kind[i] != model.KindAnnotation {
			continue
		}
		n, ok := byName[ev.Name[i]]
		if !ok {
			n = iterOf(t.Names.Get(ev.Name[i]))
			byName[ev.Name[i]] = n
		}
		if n == -2 {
			continue
		}
		r := ev.Rank[i]
		if n == -1 {
			n = int32(len(out[r]))
		}
		out[r] = addWindow(out[r], Window{Iter: n, Start: ev.Start[i], End: ev.Start[i] + ev.Dur[i]})
	}
	for r := range out {
		slices.SortFunc(out[r], func(a, b Window) int { return int(a.Iter) - int(b.Iter) })
	}
	return out
}

var lastNumber = regexp.MustCompile(`(\d+)\D*$`)

// parseIter returns the iteration number in name, -1 when re matches a name
// without a number, -2 when it does not match.
func parseIter(re *regexp.Regexp, name string) int32 {
	m := re.FindStringSubmatch(name)
	if m == nil {
		return -2
	}
	if len(m) > 1 {
		if n, err := strconv.ParseInt(m[1], 10, 32); err == nil {
			return int32(n)
		}
	}
	if d := lastNumber.FindStringSubmatch(name); d != nil {
		if n, err := strconv.ParseInt(d[1], 10, 32); err == nil {
			return int32(n)
		}
	}
	return -1
}

func addWindow(ws []Window, w Window) []Window {
	for i, x := range ws {
		if x.Iter == w.Iter {
			if w.End-w.Start > x.End-x.Start {
				ws[i] = w
			}
			return ws
		}
	}
	return append(ws, w)
}
