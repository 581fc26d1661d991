package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

// TestHangNamesAnEmptiedCulpritDump: the culprit's dump (rank 12) emptied
// to 0 bytes and another (rank 3) cut short; both are named on stderr, the
// others are still analysed, and the verdict says rank 12 may be the
// culprit instead of silently blaming another rank.
func TestHangNamesAnEmptiedCulpritDump(t *testing.T) {
	src := shared.Dir(t, "traces", "nccl", "NVIDIA_nvidia-resiliency-ext__fr_traces", "gpu_error_1st")
	dir := t.TempDir()
	paths, _ := filepath.Glob(filepath.Join(src, "_dump_*"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Base(p) {
		case "_dump_12":
			b = nil
		case "_dump_3":
			b = b[:len(b)/2]
		}
		os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644)
	}
	code, stdout, stderr := execCLI(t, "hang", dir)
	for _, want := range []string{"skipping " + filepath.Join(dir, "_dump_12") + ": an empty file", "skipping " + filepath.Join(dir, "_dump_3") + ": "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	for _, want := range []string{"rank 12: no usable dump (" + filepath.Join(dir, "_dump_12") + ": an empty file) — it may be the culprit", "rank 3: no usable dump"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if code == ExitError || code == ExitUsage {
		t.Errorf("exit %d: the readable dumps were not analysed:\n%s", code, stderr)
	}
}
