package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func frScenario(t *testing.T, name string) string {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			t.Skip("repository root not found")
		}
		dir = filepath.Dir(dir)
	}
	p := filepath.Join(dir, "..", "shared", "traces", "nccl", "NVIDIA_nvidia-resiliency-ext__fr_traces", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("real Flight Recorder dumps absent: %v", err)
	}
	return p
}

func TestHangPrintsReferenceAndExits3(t *testing.T) {
	dir := frScenario(t, "gpu_error_1st")
	code, stdout, stderr := execCLI(t, "hang", dir)
	want, _ := os.ReadFile(filepath.Join(dir, "reference_output.txt"))
	if code != ExitRegression || stdout != string(want) {
		t.Fatalf("code %d (stderr %q), stdout\n%s\nwant\n%s", code, stderr, stdout, want)
	}
}

func TestHangJSON(t *testing.T) {
	code, stdout, _ := execCLI(t, "hang", "--json", frScenario(t, "lock_gil_1st"))
	var rep struct {
		Ranks   []int32
		Culprit struct {
			PG    string `json:"pg"`
			Ranks []int32
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, stdout)
	}
	if code != ExitRegression || rep.Culprit.PG != "72" || len(rep.Culprit.Ranks) != 2 || len(rep.Ranks) != 16 {
		t.Fatalf("code %d, report %+v", code, rep)
	}
}

func TestHangNeedsDumps(t *testing.T) {
	if code, _, _ := execCLI(t, "hang"); code != ExitUsage {
		t.Fatalf("code %d, want usage", code)
	}
	if code, _, stderr := execCLI(t, "hang", t.TempDir()); code != ExitError || stderr == "" {
		t.Fatalf("empty dir: code %d stderr %q", code, stderr)
	}
}
