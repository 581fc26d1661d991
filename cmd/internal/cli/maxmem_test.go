package cli

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
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
