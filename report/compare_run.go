package report

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// Run identifies one compared run.
type Run struct {
	Input        string `json:"input"` // the path given to compare
	Tool         string `json:"tool"`
	Layout       string `json:"layout"` // "TP2 PP4 DP2"
	Schedule     string `json:"schedule"`
	Microbatches int    `json:"microbatches"`
	WorldSize    int    `json:"world_size"`
	Steps        string `json:"steps"` // analysed iterations: "3-7 (5)"
	Sources      int    `json:"sources"`
	SourceDir    string `json:"source_dir,omitempty"` // the sources' common directory
	StepNs       int64  `json:"step_ns"`
	GPU          string `json:"gpu,omitempty"` // the trace's GPU model, when it names one
	// Versions are the inputs' formats with the versions their files
	// declare ("kineto 1", "nsys 2025.1.1"), sorted: the software the
	// traces were taken with, as far as they say.
	Versions []string `json:"versions,omitempty"`
	// MissingRanks and DeclaredWorldSize are the Result's: ranks the run's
	// inputs declare but hold no trace of. Such a run is not comparable.
	MissingRanks      []int `json:"missing_ranks,omitempty"`
	DeclaredWorldSize int   `json:"declared_world_size,omitempty"`
}

// RunOf is the identity of r, read from input.
func RunOf(input string, r *result.Result) Run {
	return Run{Input: input, Tool: r.Tool, Layout: layoutOf(r.Layout), Schedule: r.Schedule, Microbatches: r.Microbatches,
		WorldSize: r.WorldSize, Steps: stepsOf(r.Iterations), Sources: len(r.Sources), SourceDir: commonDir(r.Sources), StepNs: r.StepNs, Versions: versionsOf(r.Sources),
		MissingRanks: r.MissingRanks, DeclaredWorldSize: r.DeclaredWorldSize, GPU: r.GPUName}
}

// missing says which ranks the run has no trace of ("rank 5 of 16
// declared"), "" when none.
func (u Run) missing() string {
	if len(u.MissingRanks) == 0 {
		return ""
	}
	s := "ranks " + result.RankRanges(u.MissingRanks)
	if len(u.MissingRanks) == 1 {
		s = fmt.Sprintf("rank %d", u.MissingRanks[0])
	}
	if u.DeclaredWorldSize > 0 {
		s += fmt.Sprintf(" of %d declared", u.DeclaredWorldSize)
	}
	return s
}

// jobSize is the job's world size: the declared one when the traces
// declare more ranks than they hold (those are missing ranks, a
// difference of their own).
func (u Run) jobSize() int { return max(u.WorldSize, u.DeclaredWorldSize) }

// String is the run in one line.
func (u Run) String() string {
	sched := fmt.Sprintf("%s m=%d", u.Schedule, u.Microbatches)
	if u.Schedule == "none" && u.Microbatches == 0 {
		sched = "no pipeline"
	}
	return fmt.Sprintf("%s: %s, %s, %s, %d ranks, steps %s, step %s", u.Input, u.Tool, u.Layout, sched,
		u.WorldSize, u.Steps, vocab.Duration(u.StepNs))
}

func layoutOf(l result.Layout) string { return l.String() }

func stepsOf(its []result.Iteration) string {
	if len(its) == 0 {
		return "none"
	}
	return fmt.Sprintf("%d-%d (%d)", its[0].Index, its[len(its)-1].Index, len(its))
}

// commonDir is the longest directory holding every source, "" if none.
func commonDir(src []result.Source) string {
	if len(src) == 0 {
		return ""
	}
	dir := strings.Split(filepath.ToSlash(filepath.Dir(src[0].Path)), "/")
	for _, s := range src[1:] {
		d := strings.Split(filepath.ToSlash(filepath.Dir(s.Path)), "/")
		n := 0
		for n < len(dir) && n < len(d) && dir[n] == d[n] {
			n++
		}
		dir = dir[:n]
	}
	return strings.Join(dir, "/")
}

// Comparison is a compared pair of runs: what `tpptrace compare` prints
// and `tpptrace report --baseline` shows.
type Comparison struct {
	Base, New Run
	Threshold float64
	Deltas    []Delta
	Warnings  []string // the runs differ in ways that make figures hard to compare
	Changes   Changes  // what changed beside the figures: GPU, layout, world size, kernels
}

// NewComparison compares cur (read from newInput) with base (read from
// baseInput) at threshold, with the default gates.
func NewComparison(baseInput string, base *result.Result, newInput string, cur *result.Result, threshold float64) *Comparison {
	return NewComparisonWith(baseInput, base, newInput, cur, Options{Threshold: threshold})
}

// NewComparisonWith compares cur with base under opt.
func NewComparisonWith(baseInput string, base *result.Result, newInput string, cur *result.Result, opt Options) *Comparison {
	c := &Comparison{Base: RunOf(baseInput, base), New: RunOf(newInput, cur), Threshold: opt.Threshold, Deltas: CompareWith(base, cur, opt)}
	for _, d := range c.Differences() {
		if d.Kind != DiffMissingRanks {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s differs: base %s, new %s", d.Kind, d.Base, d.New))
		}
	}
	if b, n := fmt.Sprintf("%s m=%d", base.Schedule, base.Microbatches), fmt.Sprintf("%s m=%d", cur.Schedule, cur.Microbatches); b != n {
		c.Warnings = append(c.Warnings, fmt.Sprintf("schedule differs: base %s, new %s", b, n))
	}
	for _, u := range c.sides() {
		if m := u.run.missing(); m != "" {
			c.Warnings = append(c.Warnings, fmt.Sprintf("the %s run has no trace of %s: its figures describe %d ranks only", u.name, m, u.run.WorldSize))
		}
	}
	c.Changes = changesOf(c, base, cur)
	return c
}

type side struct {
	name string // "base", "new"
	run  Run
}

func (c *Comparison) sides() []side { return []side{{"base", c.Base}, {"new", c.New}} }

// Regressions counts the regressed deltas.
func (c *Comparison) Regressions() int { return Regressions(c.Deltas) }

// Ordered is the deltas with regressions first, then improvements, then
// the rest, each in gate order.
func (c *Comparison) Ordered() []Delta {
	out := slices.Clone(c.Deltas)
	rank := func(d Delta) int {
		switch {
		case d.Regressed:
			return 0
		case d.Improved:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(out, func(a, b Delta) int { return rank(a) - rank(b) })
	return out
}

// Verdict is the comparison in one sentence.
func (c *Comparison) Verdict() string {
	n, th := c.Regressions(), vocab.Percent(c.Threshold)
	switch n {
	case 0:
		return fmt.Sprintf("no regression beyond %s", th)
	case 1:
		return fmt.Sprintf("1 regression beyond %s", th)
	}
	return fmt.Sprintf("%d regressions beyond %s", n, th)
}

// ErrNotComparable is wrapped by Comparable's errors.
var ErrNotComparable = errors.New("runs not comparable")

// Kinds of Difference.
const (
	DiffMissingRanks = "missing ranks"
	DiffLayout       = "layout"
	DiffGPU          = "GPU"
	DiffWorldSize    = "world size"
)

// Difference is one way the two runs differ that makes their figures not
// comparable one by one: a run missing ranks, a different layout, GPU
// model or world size.
type Difference struct {
	Kind      string `json:"kind"` // DiffMissingRanks, DiffLayout, DiffGPU, DiffWorldSize
	Base, New string
	Why       string `json:"why"`
}

// Differences lists why the runs are not comparable: a run whose inputs
// declare ranks it has no trace of describes part of its job (the
// missing rank may be the slow one); a layout, GPU model (when both
// traces name one) or world size that differs changes every figure.
func (c *Comparison) Differences() []Difference {
	var out []Difference
	for _, u := range c.sides() {
		if m := u.run.missing(); m != "" {
			out = append(out, Difference{Kind: DiffMissingRanks, Why: fmt.Sprintf("the %s run %s has no trace of %s", u.name, u.run.Input, m)})
		}
	}
	for _, f := range []struct{ kind, b, n string }{
		{DiffLayout, c.Base.Layout, c.New.Layout},
		{DiffGPU, c.Base.GPU, c.New.GPU},
		{DiffWorldSize, fmt.Sprint(c.Base.jobSize()), fmt.Sprint(c.New.jobSize())},
	} {
		if f.b != f.n && (f.kind != DiffGPU || f.b != "" && f.n != "") {
			out = append(out, Difference{Kind: f.kind, Base: f.b, New: f.n, Why: fmt.Sprintf("%s differs: base %s, new %s", f.kind, f.b, f.n)})
		}
	}
	return out
}

// Comparable says why the two runs cannot be compared figure by figure,
// leaving out the kinds of difference allowed; nil when they can.
func (c *Comparison) Comparable(allowed ...string) error {
	var why []string
	for _, d := range c.Differences() {
		if !slices.Contains(allowed, d.Kind) {
			why = append(why, d.Why)
		}
	}
	if len(why) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrNotComparable, strings.Join(why, "; "))
}

// versionsOf lists each format of the sources with the versions its files
// declare ("nsys 2025.1.1"), one entry per format and version.
func versionsOf(srcs []result.Source) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range srcs {
		if s.Version == "" {
			continue
		}
		v := vocab.Safe(s.Format + " " + s.Version)
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}
