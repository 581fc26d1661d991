package kinetow

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite samples/default from the default scenario")

// defaultDir is the committed default job, samples/default.
const defaultDir = "../default"

// TestDefaultJobReproducible regenerates the default scenario and expects
// the committed truth.json byte for byte (the simulation is deterministic by
// seed); -update rewrites the whole directory.
func TestDefaultJobReproducible(t *testing.T) {
	c, job := simulate(t, "default")
	if *update {
		if err := WriteDir(defaultDir, job); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(filepath.Join(defaultDir, "truth.json"))
	if err != nil {
		t.Fatalf("%v (run go test ./samples/kinetow -run Default -update)", err)
	}
	got, err := MarshalTruth(job)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("regenerated truth.json differs from %s (%d vs %d bytes); if the change is intended, run with -update", defaultDir, len(got), len(want))
	}
	if _, err := os.Stat(filepath.Join(defaultDir, FileName(c.World()-1))); err != nil {
		t.Fatalf("the committed default job lacks its last rank's trace: %v", err)
	}
}
