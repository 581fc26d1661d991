package cli

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

// TestMaxMemoryStopsNCCLLogsNamingTheFile: the budget is checked inside an
// NCCL log (every 4,096 lines), so the load fails naming the log and the
// line rather than the format after the whole read.
func TestMaxMemoryStopsNCCLLogsNamingTheFile(t *testing.T) {
	in := t.TempDir()
	log := filepath.Join(in, "host0.log")
	writeIngestFile(t, log, "h:1:1 [0] NCCL INFO ncclCommInitRank comm 0x10 rank 0 nranks 1 cudaDev 0 busId 1000 commId 0xabc - Init COMPLETE\n"+
		strings.Repeat("h:1:1 [0] NCCL INFO Channel 00/02 : 0\n", 5000))
	runtime.GC()
	code, _, errs := execCLI(t, "ingest", "--max-memory", "1", in)
	if code != ExitError || !strings.Contains(errs, log+": line 4096: ") || !strings.Contains(errs, "memory budget exceeded") {
		t.Errorf("ingest --max-memory 1: exit %d, stderr\n%s", code, errs)
	}
}

// TestHangMaxMemoryNamesTheDump: hang takes --max-memory too, and past it
// fails naming the dump it was reading instead of skipping it.
func TestHangMaxMemoryNamesTheDump(t *testing.T) {
	dir := shared.Dir(t, "traces", "nccl", "NVIDIA_nvidia-resiliency-ext__fr_traces", "lock_gil_1st")
	runtime.GC()
	code, _, errs := execCLI(t, "hang", "--max-memory", "1", dir)
	if code != ExitError || !strings.Contains(errs, filepath.Join(dir, "_dump_")) || !strings.Contains(errs, "memory budget exceeded") || strings.Contains(errs, "skipping") {
		t.Errorf("hang --max-memory 1: exit %d, stderr\n%s", code, errs)
	}
	if code, _, errs := execCLI(t, "hang", "--max-memory", "0", dir); code != ExitRegression {
		t.Errorf("hang --max-memory 0 (no limit): exit %d: %s", code, errs)
	}
}
