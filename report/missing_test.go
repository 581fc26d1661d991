package report

import (
	"errors"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// TestHeaderNamesMissingRanks: the header says which ranks are missing and
// of how many declared, and nothing when none is.
func TestHeaderNamesMissingRanks(t *testing.T) {
	res := &result.Result{WorldSize: 13, Layout: result.Layout{TP: 2, PP: 4, DP: 2}, Schedule: "1f1b", StepNs: 1e8}
	if h := header(res); !strings.HasPrefix(h, "13 ranks · ") {
		t.Errorf("complete job: header %q", h)
	}
	res.MissingRanks, res.DeclaredWorldSize = []int{5, 8, 9, 10}, 16
	if h := header(res); !strings.HasPrefix(h, "13 ranks (ranks 5,8-10 missing of 16) · TP2 PP4 DP2") {
		t.Errorf("header %q", h)
	}
	res.MissingRanks, res.DeclaredWorldSize = []int{7}, 0
	if h := header(res); !strings.HasPrefix(h, "13 ranks (rank 7 missing) · ") {
		t.Errorf("no declared size: header %q", h)
	}
}

// TestComparableRefusesMissingRanks: either run missing ranks makes the
// pair not comparable, naming the run; the comparison warns of it too.
func TestComparableRefusesMissingRanks(t *testing.T) {
	full := &result.Result{WorldSize: 16, DeclaredWorldSize: 16, StepNs: 1e8}
	miss := &result.Result{WorldSize: 15, DeclaredWorldSize: 16, MissingRanks: []int{5}, StepNs: 1e8}
	if err := NewComparison("a.json", full, "b.json", full, 0.05).Comparable(); err != nil {
		t.Errorf("complete runs: %v", err)
	}
	c := NewComparison("a.json", full, "b.json", miss, 0.05)
	err := c.Comparable()
	if err == nil || !strings.Contains(err.Error(), "the new run b.json has no trace of rank 5 of 16 declared") {
		t.Errorf("Comparable() = %v", err)
	}
	if !strings.Contains(strings.Join(c.Warnings, "\n"), "the new run has no trace of rank 5") {
		t.Errorf("warnings %q", c.Warnings)
	}
	if err := NewComparison("b.json", miss, "a.json", full, 0.05).Comparable(); err == nil || !strings.Contains(err.Error(), "the base run b.json") {
		t.Errorf("missing base: Comparable() = %v", err)
	}
}

// TestComparableRefusesDifferentJobs: a different layout, GPU model or
// world size makes the runs not comparable, each reason said; allowing a
// kind leaves the others; a GPU named by one run only is no difference.
func TestComparableRefusesDifferentJobs(t *testing.T) {
	base, cur := fixed(), fixed()
	base.GPUName, cur.GPUName = "NVIDIA A100-SXM4-80GB", "Tesla V100-SXM2-32GB"
	cur.Layout.PP, cur.WorldSize = 3, 6
	err := NewComparison("a.json", base, "b.json", cur, 0.05).Comparable()
	for _, want := range []string{"layout differs: base TP2 PP2 DP1, new TP2 PP3 DP1", "GPU differs: base NVIDIA A100-SXM4-80GB, new Tesla V100-SXM2-32GB", "world size differs: base 4, new 6"} {
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrNotComparable) {
			t.Errorf("Comparable() = %v, want %q", err, want)
		}
	}
	c := NewComparison("a.json", base, "b.json", cur, 0.05)
	if err := c.Comparable(DiffLayout, DiffWorldSize); err == nil || strings.Contains(err.Error(), "layout") || !strings.Contains(err.Error(), "GPU") {
		t.Errorf("layout and world size allowed: %v", err)
	}
	cur.GPUName = ""
	if err := NewComparison("a.json", base, "b.json", cur, 0.05).Comparable(DiffLayout, DiffWorldSize); err != nil {
		t.Errorf("a GPU named by one run only: %v", err)
	}
}
