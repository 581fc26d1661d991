package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// KernelChange is one kernel short name of a comparison, its GPU time per
// step (summed over ranks) in each run; 0 where the run has none.
type KernelChange struct {
	Name   string `json:"name"`
	BaseNs int64  `json:"base_ns"`
	NewNs  int64  `json:"new_ns"`
}

// Changes is what changed between the runs beside the figures: the ways
// they differ (layout, GPU model, world size, missing ranks: refused
// unless allowed) and the kernels that appeared, vanished, or grew most
// (by short name, from the Results' kernels; the topKernels largest of
// each list, with the lists' full lengths).
type Changes struct {
	Differences []Difference `json:"differences,omitempty"`
	// Versions says when the inputs' declared software versions differ
	// (never a reason to refuse the comparison).
	Versions       *VersionChange `json:"versions,omitempty"`
	KernelsAdded   []KernelChange `json:"kernels_added,omitempty"`
	KernelsRemoved []KernelChange `json:"kernels_removed,omitempty"`
	KernelsGrown   []KernelChange `json:"kernels_grown,omitempty"`
	Added          int            `json:"kernels_added_count,omitempty"`
	Removed        int            `json:"kernels_removed_count,omitempty"`
}

// VersionChange is the inputs' versions in each run, when they differ.
type VersionChange struct {
	Base []string `json:"base"`
	New  []string `json:"new"`
}

// topKernels is how many kernels each list keeps.
const topKernels = 10

// changesOf compares the runs' kernels; nothing when either run has no
// kernel list (a Result written before they were kept).
func changesOf(c *Comparison, base, cur *result.Result) Changes {
	ch := Changes{Differences: c.Differences()}
	if !slices.Equal(c.Base.Versions, c.New.Versions) && len(c.Base.Versions)+len(c.New.Versions) > 0 {
		ch.Versions = &VersionChange{Base: c.Base.Versions, New: c.New.Versions}
	}
	if len(base.Kernels) == 0 || len(cur.Kernels) == 0 {
		return ch
	}
	for _, k := range kernelUnion(base, cur) {
		switch {
		case k.BaseNs == 0 && k.NewNs > 0:
			ch.KernelsAdded = append(ch.KernelsAdded, k)
		case k.NewNs == 0 && k.BaseNs > 0:
			ch.KernelsRemoved = append(ch.KernelsRemoved, k)
		case k.NewNs > k.BaseNs:
			ch.KernelsGrown = append(ch.KernelsGrown, k)
		}
	}
	ch.Added, ch.Removed = len(ch.KernelsAdded), len(ch.KernelsRemoved)
	by := func(f func(KernelChange) int64) func(a, b KernelChange) int {
		return func(a, b KernelChange) int { return cmp.Or(cmp.Compare(f(b), f(a)), cmp.Compare(a.Name, b.Name)) }
	}
	slices.SortFunc(ch.KernelsAdded, by(func(k KernelChange) int64 { return k.NewNs }))
	slices.SortFunc(ch.KernelsRemoved, by(func(k KernelChange) int64 { return k.BaseNs }))
	slices.SortFunc(ch.KernelsGrown, by(func(k KernelChange) int64 { return k.NewNs - k.BaseNs }))
	ch.KernelsAdded, ch.KernelsRemoved, ch.KernelsGrown = top(ch.KernelsAdded), top(ch.KernelsRemoved), top(ch.KernelsGrown)
	return ch
}

func top(ks []KernelChange) []KernelChange { return ks[:min(len(ks), topKernels)] }

// kernelUnion pairs the runs' kernels by name.
func kernelUnion(base, cur *result.Result) []KernelChange {
	idx := map[string]int{}
	var out []KernelChange
	for _, k := range base.Kernels {
		idx[k.Name] = len(out)
		out = append(out, KernelChange{Name: k.Name, BaseNs: k.TimeNs})
	}
	for _, k := range cur.Kernels {
		if i, ok := idx[k.Name]; ok {
			out[i].NewNs = k.TimeNs
		} else {
			out = append(out, KernelChange{Name: k.Name, NewNs: k.TimeNs})
		}
	}
	return out
}

// Lines are the changes in words, one line each: "GPU differs: …",
// "kernels added (3): a 1.20 ms, b 300 µs", "kernels grown most: …".
func (ch Changes) Lines() []string {
	var out []string
	for _, d := range ch.Differences {
		out = append(out, d.Why)
	}
	if v := ch.Versions; v != nil {
		out = append(out, fmt.Sprintf("software versions differ: base %s, new %s", orNone(v.Base), orNone(v.New)))
	}
	list := func(title string, n int, ks []KernelChange, f func(KernelChange) string) {
		if len(ks) == 0 {
			return
		}
		var parts []string
		for _, k := range ks {
			parts = append(parts, k.Name+" "+f(k))
		}
		head := fmt.Sprintf("%s (%d)", title, n)
		if n > len(ks) {
			head = fmt.Sprintf("%s (%d, the %d largest)", title, n, len(ks))
		}
		out = append(out, head+": "+strings.Join(parts, ", "))
	}
	list("kernels added", ch.Added, ch.KernelsAdded, func(k KernelChange) string { return vocab.Duration(k.NewNs) })
	list("kernels removed", ch.Removed, ch.KernelsRemoved, func(k KernelChange) string { return vocab.Duration(k.BaseNs) })
	list("kernels grown most", len(ch.KernelsGrown), ch.KernelsGrown, func(k KernelChange) string {
		return fmt.Sprintf("+%s (%s → %s)", vocab.Duration(k.NewNs-k.BaseNs), vocab.Duration(k.BaseNs), vocab.Duration(k.NewNs))
	})
	return out
}

// orNone joins versions, "none declared" for none.
func orNone(vs []string) string {
	if len(vs) == 0 {
		return "none declared"
	}
	return strings.Join(vs, ", ")
}

// KernelLines are the version and kernel lines of Lines (the differences
// are warnings already).
func (ch Changes) KernelLines() []string {
	return Changes{Versions: ch.Versions, KernelsAdded: ch.KernelsAdded, KernelsRemoved: ch.KernelsRemoved, KernelsGrown: ch.KernelsGrown, Added: ch.Added, Removed: ch.Removed}.Lines()
}
