package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/kinetow"
)

// TestMissingRankThroughTheCLI: the default scenario without its slow
// rank's trace. analyze names the rank in the header and in a finding
// (twice: the second run reads the cached dataset), --fail-on missing
// trips, and compare refuses the run on either side with exit 1 unless
// --allow-missing-ranks is given.
func TestMissingRankThroughTheCLI(t *testing.T) {
	cfg, err := samples.Lookup("default")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if code, _, stderr := execCLI(t, "samples", "gen", "--scenario", "default", "-o", dir); code != ExitOK {
		t.Fatalf("samples gen: exit %d: %s", code, stderr)
	}
	if err := os.Remove(filepath.Join(dir, kinetow.FileName(cfg.SlowRank))); err != nil {
		t.Fatal(err)
	}
	header := fmt.Sprintf("%d ranks (rank %d missing of %d) · ", cfg.World()-1, cfg.SlowRank, cfg.World())
	for run := range 2 {
		code, stdout, stderr := execCLI(t, "analyze", dir)
		if code != ExitOK {
			t.Fatalf("analyze run %d: exit %d: %s", run, code, stderr)
		}
		first, _, _ := strings.Cut(stdout, "\n")
		if !strings.HasPrefix(first, header) || !strings.Contains(stdout, fmt.Sprintf("[high] missing ranks: rank %d has no trace", cfg.SlowRank)) {
			t.Fatalf("analyze run %d: header %q (want prefix %q) or finding missing:\n%s", run, first, header, stdout)
		}
	}
	if code, _, stderr := execCLI(t, "analyze", "--fail-on", "missing", dir); code != ExitRegression {
		t.Errorf("--fail-on missing: exit %d, want %d: %s", code, ExitRegression, stderr)
	}
	miss, full := analyzedJSON(t, "miss.json", dir), analyzedJSON(t, "full.json", "--sample", "default")
	for _, pair := range [][2]string{{full, miss}, {miss, full}} {
		code, stdout, stderr := execCLI(t, "compare", pair[0], pair[1])
		if code != ExitError || !strings.Contains(stderr, "not comparable") || !strings.Contains(stderr, fmt.Sprintf("no trace of rank %d of %d declared", cfg.SlowRank, cfg.World())) || stdout != "" {
			t.Errorf("compare %s %s: exit %d (want %d), stderr %q, stdout %q", pair[0], pair[1], code, ExitError, stderr, stdout)
		}
	}
	code, stdout, _ := execCLI(t, "compare", "--allow-missing-ranks", full, miss)
	if code == ExitError || code == ExitUsage || !strings.Contains(stdout, "warning: the new run has no trace of rank") {
		t.Errorf("--allow-missing-ranks: exit %d, output:\n%s", code, stdout)
	}
	if code, _, stderr := execCLI(t, "compare", full, full); code != ExitOK {
		t.Errorf("a complete run against itself: exit %d: %s", code, stderr)
	}
}

// analyzedJSON writes the Result of 'analyze --json args' into a new file
// named name and returns its path.
func analyzedJSON(t *testing.T, name string, args ...string) string {
	t.Helper()
	code, stdout, stderr := execCLI(t, append([]string{"analyze", "--json"}, args...)...)
	if code != ExitOK {
		t.Fatalf("analyze --json %v: exit %d: %s", args, code, stderr)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
