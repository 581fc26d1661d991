package nsys

import (
	"reflect"
	"testing"
)

// flatSeeds are payload texts: NCCL's, and edge cases of the fast path.
var flatSeeds = []string{
	`{"NCCL communicator ID":288158374688719313,"No. of ranks":4,"Rank":0,"CUDA device":0}`,
	`{"NCCL communicator ID":287184207386313592,"Message size [bytes]":5431296}`,
	` { "a" : -0.5e+3 , "b":"x,y", "c":true, "d":false, "e":null, "a":2 } trailing`,
	`{}`, `{"a":01}`, `{"a":1.}`, `{"a":"\u0041"}`, `{"a":{"b":1}}`, `{"a":[1]}`, `null`, `{"é":1}`, `{"a":1,}`,
}

// FuzzFlatJSON: whatever text the fast path decodes, encoding/json decodes
// to the same map.
func FuzzFlatJSON(f *testing.F) {
	for _, s := range flatSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, ok := flatJSON(s)
		if !ok {
			return
		}
		var want map[string]any
		if !decodeJSON(s, &want) || !reflect.DeepEqual(m, want) {
			t.Fatalf("%q: fast %v, encoding/json %v", s, m, want)
		}
	})
}

// TestFlatJSON: NCCL's payloads take the fast path; escapes, nesting and
// invalid numbers do not.
func TestFlatJSON(t *testing.T) {
	for i, s := range flatSeeds {
		_, ok := flatJSON(s)
		if want := i < 4; ok != want {
			t.Errorf("%q: fast path %v, want %v", s, ok, want)
		}
	}
}
