package cli

import (
	"strings"
	"testing"
)

// TestCompareAcceptsAFix: the default job, then the same job without its
// slow rank (truth: rank 5 20 % slower, then no slow rank). Stage 1's
// bubble grows by what its compute and TP wait no longer take, so only a
// gate that judges the bubble net of that passes the fix; the reverse
// (the rank turning slow) fails on the newly slow rank.
func TestCompareAcceptsAFix(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := execCLI(t, "samples", "gen", "--scenario", "default", "--slow-rank", "-1", "-o", dir); code != ExitOK {
		t.Fatalf("samples gen: exit %d: %s", code, stderr)
	}
	slow, fixed := analyzedJSON(t, "slow.json", "--sample", "default"), analyzedJSON(t, "fixed.json", dir)
	code, stdout, stderr := execCLI(t, "compare", slow, fixed)
	if code != ExitOK || !strings.Contains(stdout, "slow rank 5") {
		t.Errorf("the fix: exit %d, want 0:\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = execCLI(t, "compare", fixed, slow)
	if code != ExitRegression || !strings.Contains(lineWith(stdout, "slow rank 5"), "REGRESSION") {
		t.Errorf("the rank turning slow: exit %d, want 3:\n%s", code, stdout)
	}
}
