package ncclw

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tpptrace/tpptrace/samples"
)

// LogFile is the INFO log of a host, as NCCL_DEBUG_FILE=nccl.%h.log names it.
func LogFile(host string) string { return "nccl." + host + ".log" }

// WriteLogs writes one INFO log per host into dir and returns the paths.
func WriteLogs(dir string, job *samples.Job) ([]string, error) {
	var paths []string
	for _, h := range hosts(job) {
		var b bytes.Buffer
		if err := WriteLog(&b, job, h); err != nil {
			return paths, err
		}
		p, err := writeFile(dir, LogFile(h), b.Bytes())
		if err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// WriteInspectorDir writes one Inspector file per rank (process) into dir,
// as NCCL_INSPECTOR_DUMP_DIR holds them, and returns the paths.
func WriteInspectorDir(dir string, job *samples.Job, opts InspectorOptions) ([]string, error) {
	var paths []string
	for _, r := range job.Trace.Ranks {
		var b bytes.Buffer
		if err := WriteInspector(&b, job, r.Rank, opts); err != nil {
			return paths, err
		}
		p, err := writeFile(dir, InspectorFile(r.Host, r.PID), b.Bytes())
		if err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

func writeFile(dir, name string, b []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("ncclw: %w", err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return "", fmt.Errorf("ncclw: %w", err)
	}
	return p, nil
}

// hosts lists the job's hosts in rank order.
func hosts(job *samples.Job) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range job.Trace.Ranks {
		if !seen[r.Host] {
			seen[r.Host] = true
			out = append(out, r.Host)
		}
	}
	return out
}
