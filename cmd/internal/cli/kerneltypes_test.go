package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

// TestBreakdownKernelTypesMatchHTA: `breakdown --hta --kernel-types --json`
// gives HTA's own kernel-type table of the 2-rank filter trace (its oracle).
func TestBreakdownKernelTypesMatchHTA(t *testing.T) {
	kdir := shared.Dir(t, "traces", "kineto")
	code, out, stderr := execCLI(t, "breakdown", "--hta", "--kernel-types", "--json", filepath.Join(kdir, "hta_trace_filter_2rank"))
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got []struct {
		Type string  `json:"kernel_type"`
		Ns   int64   `json:"sum_ns"`
		Pct  float64 `json:"percentage"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := shared.HTAKernelTypes(t, "hta_trace_filter_2rank")
	if len(got) != len(want) {
		t.Fatalf("%d rows, HTA %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Type != w.Type || math.Abs(float64(g.Ns)/1e3-w.Sum) > max(0.005*w.Sum, 1) || math.Abs(g.Pct-w.Pct) > 0.1+1e-9 {
			t.Errorf("row %d: %s %.0f µs %.1f %%, HTA %s %.0f µs %.1f %%", i, g.Type, float64(g.Ns)/1e3, g.Pct, w.Type, w.Sum, w.Pct)
		}
	}
}
