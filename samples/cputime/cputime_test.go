package cputime

import (
	"runtime"
	"testing"
)

// TestProcessGrows: spinning adds CPU time.
func TestProcessGrows(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no rusage here")
	}
	before := Process()
	x := 0
	for i := range 50_000_000 {
		x ^= i
	}
	_ = x
	if d := Process() - before; d <= 0 {
		t.Errorf("CPU time grew by %v after a busy loop", d)
	}
}
