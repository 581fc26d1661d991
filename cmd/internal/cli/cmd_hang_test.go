package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

func TestHangPrintsReferenceAndExits3(t *testing.T) {
	dir := shared.Dir(t, "traces", "nccl", "NVIDIA_nvidia-resiliency-ext__fr_traces", "gpu_error_1st")
	code, stdout, stderr := execCLI(t, "hang", dir)
	want, _ := os.ReadFile(filepath.Join(dir, "reference_output.txt"))
	if code != ExitRegression || stdout != string(want) {
		t.Fatalf("code %d (stderr %q), stdout\n%s\nwant\n%s", code, stderr, stdout, want)
	}
}

func TestHangJSON(t *testing.T) {
	code, stdout, _ := execCLI(t, "hang", "--json", shared.Dir(t, "traces", "nccl", "NVIDIA_nvidia-resiliency-ext__fr_traces", "lock_gil_1st"))
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
