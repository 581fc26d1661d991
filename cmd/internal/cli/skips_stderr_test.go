package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPositionedSkipsAreNamedOnStderr: an event that cannot be decoded is
// named with its file and byte offset on stderr, also under --json.
func TestPositionedSkipsAreNamedOnStderr(t *testing.T) {
	in := t.TempDir()
	bad := strings.Replace(kinetoDoc(""), `"traceEvents": [`, `"traceEvents": [{"ph": 5, "name": "x"}, `, 1)
	writeIngestFile(t, filepath.Join(in, "rank0.json"), bad)
	writeIngestFile(t, filepath.Join(in, "rank1.json"), kinetoDoc(""))
	code, _, errs := execCLI(t, "analyze", "--json", in)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	off := strings.Index(bad, `{"ph": 5`)
	want := filepath.Join(in, "rank0.json") + ": byte " + strconv.Itoa(off) + ": undecodable event"
	if !strings.Contains(errs, want) {
		t.Fatalf("stderr lacks %q:\n%s", want, errs)
	}
}
