package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestTextHeaderShowsThroughput: tokens/s and MFU join the header line
// when known, and nothing is added without them.
func TestTextHeaderShowsThroughput(t *testing.T) {
	r := fixed()
	if h := header(r); strings.Contains(h, "tokens/s") || strings.Contains(h, "MFU") {
		t.Fatalf("header without the flags shows throughput: %s", h)
	}
	r.TokensPerS, r.ModelTFLOPsPerGPU, r.MFU, r.PeakTFLOPsPerGPU, r.PeakFrom = 1e5, 262.5, 262.5/989, 989, "gpu-table"
	var b bytes.Buffer
	if err := Text(&b, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(b.String(), "\n")
	if !strings.HasSuffix(first, " · 100,000 tokens/s · MFU 26.5 % (262 of 989 TFLOP/s per GPU)") {
		t.Errorf("header line: %s", first)
	}
	r.MFU, r.PeakTFLOPsPerGPU, r.PeakFrom = 0, 0, ""
	if h := header(r); !strings.HasSuffix(h, " · 100,000 tokens/s · 262 TFLOP/s per GPU") {
		t.Errorf("header without a peak: %s", h)
	}
}

// TestCompareTokensPerSecondFalling: tokens/s 10 % lower regresses, 10 %
// higher improves; MFU likewise; a run without them adds no delta.
func TestCompareTokensPerSecondFalling(t *testing.T) {
	base, cur := fixed(), fixed()
	base.TokensPerS, cur.TokensPerS = 1e6, 0.9e6
	ds := Compare(base, cur, 0.05)
	d := deltaNamed(t, ds, "tokens/s")
	if !d.Regressed || d.Improved || Regressions(ds) != 1 {
		t.Fatalf("tokens/s 1e6 → 9e5: %+v, %d regressions", d, Regressions(ds))
	}
	if d.BaseText() != "1,000,000 tokens/s" || d.ChangeText() != "-10.0 %" {
		t.Errorf("formatted %q %q", d.BaseText(), d.ChangeText())
	}
	cur.TokensPerS = 1.1e6
	if d := deltaNamed(t, Compare(base, cur, 0.05), "tokens/s"); d.Regressed || !d.Improved {
		t.Errorf("tokens/s 1e6 → 1.1e6: %+v", d)
	}
	cur.TokensPerS = 0.97e6 // within 5 %
	if d := deltaNamed(t, Compare(base, cur, 0.05), "tokens/s"); d.Regressed || d.Improved {
		t.Errorf("tokens/s −3 %% at a 5 %% threshold: %+v", d)
	}
	base.MFU, cur.MFU = 0.40, 0.36
	if d := deltaNamed(t, Compare(base, cur, 0.05), "MFU"); !d.Regressed || d.BaseText() != "40.0 %" {
		t.Errorf("MFU 40 %% → 36 %%: %+v", d)
	}
	cur.TokensPerS, cur.MFU = 0, 0
	for _, d := range Compare(base, cur, 0.05) {
		if d.Name == "tokens/s" || d.Name == "MFU" {
			t.Errorf("compared %s with a run that lacks it", d.Name)
		}
	}
}
