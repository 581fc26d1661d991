// Package shared locates the project's shared reference data — the real
// public traces in ../shared/traces beside the repository — for
// conformance tests, and skips a test when that folder is absent (the
// project builds and tests without it).
package shared

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns ../shared/<elem...> relative to the repository root (the
// nearest parent of the working directory holding go.mod), or skips tb
// with a message when it is absent.
func Dir(tb testing.TB, elem ...string) string {
	tb.Helper()
	p, err := Find(elem...)
	if err != nil {
		tb.Skipf("%v: skipping the conformance test", err)
	}
	return p
}

// Find returns ../shared/<elem...> like Dir, or an error when it is
// absent, for tests that only draw extra seeds from it and must run
// without it (fuzz targets).
func Find(elem ...string) (string, error) {
	root, ok := repoRoot()
	if !ok {
		return "", errors.New("repository root (go.mod) not found")
	}
	p := filepath.Join(append([]string{root, "..", "shared"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("shared data %s is absent (%w)", p, err)
	}
	return p, nil
}

func repoRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// FRDumps returns the folder of one scenario of the real Flight Recorder
// dumps (nvidia-resiliency-ext's fr_traces), or skips tb when it is absent.
func FRDumps(tb testing.TB, scenario string) string {
	tb.Helper()
	return Dir(tb, "traces", "nccl", "NVIDIA_nvidia-resiliency-ext__fr_traces", scenario)
}
