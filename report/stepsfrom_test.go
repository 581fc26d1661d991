package report

import (
	"strings"
	"testing"
)

// TestTextHeaderSaysWhatFoundTheSteps: the header names the step source,
// and a Result that does not say keeps the plain count.
func TestTextHeaderSaysWhatFoundTheSteps(t *testing.T) {
	cases := map[string]string{
		"":                         "(2 steps)",
		"annotations:ProfilerStep": "(2 steps, from ProfilerStep ranges)",
		"annotations:train_step":   "(2 steps, from train_step ranges)",
		"step-regex":               "(2 steps, from --step-regex ranges)",
		"dp-sync-period":           "(2 steps, from the DP-sync period)",
		"world-sync-period":        "(2 steps, from the WORLD-sync period)",
		"whole-trace":              "(2 steps, the whole trace)",
	}
	for from, want := range cases {
		r := fixed()
		r.StepsFrom = from
		if h := header(r); !strings.Contains(h, want) {
			t.Errorf("steps_from %q: header %q lacks %q", from, h, want)
		}
	}
}
