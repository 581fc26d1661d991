package shared

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// HTAKernelType is one row of HTA's kernel-type table in an oracle file.
type HTAKernelType struct {
	Type string  `json:"kernel_type"`
	Sum  float64 `json:"sum"` // µs, summed over ranks
	Pct  float64 `json:"percentage"`
}

// HTAKernelTypes reads the kernel-type table of HTA's oracle for set
// (../shared/traces/kineto/hta_oracle/<set>.json), or skips tb.
func HTAKernelTypes(tb testing.TB, set string) []HTAKernelType {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(tb, "traces", "kineto", "hta_oracle"), set+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var o struct {
		Results struct {
			Kinds []HTAKernelType `json:"kernel_type_breakdown"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		tb.Fatalf("%s: %v", set, err)
	}
	return o.Results.Kinds
}

// HTAOracle is the temporal breakdown and overlap of one of HTA's oracle
// files, as run_hta.py wrote them.
type HTAOracle struct {
	Results struct {
		Temporal []map[string]float64 `json:"temporal_breakdown"`
		Overlap  []map[string]any     `json:"comm_comp_overlap"`
	} `json:"results"`
}

// HTASets are the Kineto trace sets under traces/kineto that carry HTA's
// oracle files (run_hta.py's breakdown, overlap and kernel types).
var HTASets = []string{"hta_trace_filter_2rank", "param_dlrm_8rank", "hta_nccl_data_rank0of2", "hta_ns_resolution_rank0"}

// ReadHTAOracle reads HTA's oracle for set, or skips tb.
func ReadHTAOracle(tb testing.TB, set string) HTAOracle {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(tb, "traces", "kineto", "hta_oracle"), set+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var o HTAOracle
	if err := json.Unmarshal(b, &o); err != nil {
		tb.Fatalf("%s: %v", set, err)
	}
	return o
}
