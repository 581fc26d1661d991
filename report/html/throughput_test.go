package html

import (
	stdhtml "html"
	"os"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

// TestMetadataShowsThroughput: the metadata table has tokens/s and MFU
// with the peak's origin when the Result has them, and no such rows
// otherwise.
func TestMetadataShowsThroughput(t *testing.T) {
	r := fixture.Result(fixture.Small())
	for _, m := range metadata(r) {
		if m.Name == "throughput" || m.Name == "model FLOPs" {
			t.Fatalf("metadata without the flags has %+v", m)
		}
	}
	r.TokensPerS, r.ModelTFLOPsPerGPU, r.MFU, r.PeakTFLOPsPerGPU, r.PeakFrom = 2.5e5, 400, 400.0/989, 989, "gpu-table"
	files, err := Write(t.TempDir(), r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(files.HTML)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"250,000 tokens/s", "MFU 40.4 % (400 of 989 TFLOP/s per GPU), peak from gpu-table"} {
		if !strings.Contains(string(b), stdhtml.EscapeString(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestMetadataSaysWhatFoundTheSteps: the steps row names the step source
// when the Result has one.
func TestMetadataSaysWhatFoundTheSteps(t *testing.T) {
	r := fixture.Result(fixture.Small())
	r.StepsFrom = "dp-sync-period"
	for _, m := range metadata(r) {
		if m.Name == "steps analysed" && !strings.HasSuffix(m.Value, ", from the DP-sync period") {
			t.Errorf("steps row %q lacks the source", m.Value)
		}
	}
}
