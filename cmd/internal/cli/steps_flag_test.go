package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/samples"
)

// TestAnalyzeRealNsysStepsAndRegex: an nsys-real sample finds its steps
// from the train_step ranges without a flag, and --step-regex overrides
// the names (and picks the steps).
func TestAnalyzeRealNsysStepsAndRegex(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := execCLI(t, "samples", "gen", "--scenario", "slow-rank", "--formats", "nsys-real", "-o", dir); code != ExitOK {
		t.Fatalf("samples gen: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	var truth samples.Truth
	if err == nil {
		err = json.Unmarshal(b, &truth)
	}
	if err != nil || len(truth.Steps) < 3 {
		t.Fatalf("truth.json: %v, steps %v", err, truth.Steps)
	}
	mid := truth.Steps[1 : len(truth.Steps)-1]
	re := fmt.Sprintf(`^train_step (%d|%d)$`, mid[0], mid[len(mid)-1])
	cases := []struct {
		args  []string
		from  string
		iters []int
	}{
		{nil, "annotations:train_step", truth.Steps},
		{[]string{"--step-regex", re}, "step-regex", []int{mid[0], mid[len(mid)-1]}},
	}
	for _, c := range cases {
		args := append(append([]string{"analyze", "--json"}, c.args...), filepath.Join(dir, "nsys-real"))
		code, out, stderr := execCLI(t, args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var res result.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, it := range res.Iterations {
			got = append(got, it.Index)
		}
		if res.StepsFrom != c.from || !slices.Equal(got, c.iters) {
			t.Errorf("%v: steps %v from %q, want %v from %q", c.args, got, res.StepsFrom, c.iters, c.from)
		}
	}
}
