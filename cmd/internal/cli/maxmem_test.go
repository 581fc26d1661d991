package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/cmd/internal/gcfloor"
)

// bigKinetoDir writes one rank of 5,000 kernels (the reader checks the
// budget every 4,096 events).
func bigKinetoDir(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"distributedInfo": {"rank": 0}, "traceEvents": [`)
	for i := range 5000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": ` + strconv.Itoa(10*i) + `, "dur": 5, "args": {"stream": 7}}`)
	}
	b.WriteString("]}")
	in := t.TempDir()
	writeIngestFile(t, filepath.Join(in, "rank0.json"), b.String())
	return in
}

func TestMaxMemoryFailsTheLoadNamingTheFile(t *testing.T) {
	in := bigKinetoDir(t)
	runtime.GC()
	for _, cmd := range []string{"analyze", "ingest"} {
		code, _, errs := execCLI(t, cmd, "--max-memory", "1", in)
		if code != ExitError || !strings.Contains(errs, filepath.Join(in, "rank0.json")) || !strings.Contains(errs, "memory budget exceeded") {
			t.Errorf("%s --max-memory 1: exit %d, stderr\n%s", cmd, code, errs)
		}
	}
	if code, _, errs := execCLI(t, "analyze", "--max-memory", "0", in); code != ExitOK {
		t.Errorf("--max-memory 0 (no limit): exit %d: %s", code, errs)
	}
	if code, _, _ := execCLI(t, "analyze", "--max-memory", "-5", in); code != ExitUsage {
		t.Errorf("--max-memory -5: exit %d, want usage", code)
	}
}

// TestMaxMemoryUnderTheBinarysFloor: with the binary's collector (gcfloor,
// started by cmd/tpptrace, in a child process of this test so that the
// other tests keep Go's), --max-memory 1 still fails a load whose heap
// stays under the floor: the budget lowers the floor, so the heap is
// collected and its live bytes known.
func TestMaxMemoryUnderTheBinarysFloor(t *testing.T) {
	if os.Getenv("TPPTRACE_TEST_GCFLOOR") == "1" {
		gcfloor.Start(50, 64<<20)
		code, _, errs := execCLI(t, "analyze", "--no-cache", "--max-memory", "1", bigKinetoDir(t))
		if code != ExitError || !strings.Contains(errs, "memory budget exceeded") {
			t.Errorf("analyze --max-memory 1 under the floor: exit %d, stderr\n%s", code, errs)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMaxMemoryUnderTheBinarysFloor$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TPPTRACE_TEST_GCFLOOR=1")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "PASS") {
		t.Errorf("the child run failed (%v):\n%s", err, out)
	}
}
