package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

// acceptedBy names every registered format whose Sniff accepts the file.
func acceptedBy(t *testing.T, path string) []string {
	t.Helper()
	h, err := readHead(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range Formats() {
		if f.Sniff(path, h) {
			out = append(out, f.Name)
		}
	}
	return out
}

// TestSniffRealNCCLSamples: each real NCCL-level file is claimed by its
// format alone, and the files beside them by none.
func TestSniffRealNCCLSamples(t *testing.T) {
	dir := filepath.Join(shared.Dir(t), "traces", "nccl")
	cases := map[string]string{
		"Timez-zx_nccl-tests__nccl.log":                                             "nccl-log",
		"pha-Z_nccl__example_profiler_trace_p2p_ring_4rank_nccl2.28.json.txt":       "nccl-profiler",
		"NVIDIA_nvidia-resiliency-ext__fr_traces/gpu_error_1st/_dump_0":             "flight-recorder",
		"NVIDIA_nvidia-resiliency-ext__fr_traces/gpu_error_1st/fault_injection.log": "",
		"Timez-zx_nccl-tests__nccl_topo_dump.xml":                                   "",
	}
	for file, want := range cases {
		p := filepath.Join(dir, file)
		if _, err := os.Stat(p); err != nil {
			t.Skipf("real samples absent: %v", err)
		}
		if got := strings.Join(acceptedBy(t, p), ","); got != want {
			t.Errorf("%s sniffed as %q, want %q", file, got, want)
		}
	}
}

// TestNCCLFormatsKeepTheirOrder: the NCCL-level formats are sniffed in the
// order they were before the decoders were split into packages.
func TestNCCLFormatsKeepTheirOrder(t *testing.T) {
	var got []string
	for _, f := range Formats() {
		if strings.HasPrefix(f.Name, "nccl-") || f.Name == "flight-recorder" {
			got = append(got, f.Name)
		}
	}
	if want := "flight-recorder nccl-profiler nccl-inspector nccl-log"; strings.Join(got, " ") != want {
		t.Fatalf("NCCL formats in order %v, want %s", got, want)
	}
}
