package report

import (
	"bytes"
	"io"
	"testing"
)

// FuzzReadJSON: any bytes given as a Result file decode or fail, and what
// decodes renders as text and compares against itself without a panic.
func FuzzReadJSON(f *testing.F) {
	var b bytes.Buffer
	if err := JSON(&b, fixed()); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte(`{"schema_version": 1, "world_size": 2, "ranks": [{"rank": 7}], "stages": [{"stage": -1}], "bottleneck_stage": 9}`))
	f.Add([]byte(`{"schema_version": 1, "iterations": [{"index": -1}], "findings": [{"severity": "high", "summary": "\u001b[2J"}]}`))
	f.Add([]byte(`{"schema_version": 2, "findings": [{"headline": {"say": "slow_rank", "ranks": [9], "figures": [{"name": "excess", "value": 1e308, "unit": "fraction"}]},
		"evidence": [{"say": "gpu", "words": {"gpu": "\u001b]0;x"}}, {"say": "stage_compute"}, {"say": "nope"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		Text(io.Discard, res, TextOptions{})
		CompareText(io.Discard, Compare(res, res, 0.05))
	})
}
