package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// hostileDir writes two ranks whose host names carry terminal escapes (set
// the window title, clear the screen, forge a line) and a broken file whose
// name carries one.
func hostileDir(t *testing.T) string {
	t.Helper()
	in := t.TempDir()
	host := `"host_name": "\u001b]0;pwned\u0007node\u001b[2J\r\nwarning: forged\u009b31m",`
	writeIngestFile(t, filepath.Join(in, "rank0.json"), kinetoDoc(host))
	writeIngestFile(t, filepath.Join(in, "rank1.json"), kinetoDoc(host))
	writeIngestFile(t, filepath.Join(in, "rank2\x1b[2J.json"), `{"traceEvents": [{"ph": "X", `)
	return in
}

func TestInputStringsReachTheTerminalEscaped(t *testing.T) {
	in := hostileDir(t)
	for _, args := range [][]string{{"ingest", in}, {"analyze", in}} {
		code, out, errs := runWithTTY(t, false, args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		all := out + errs
		for _, bad := range []string{"\x1b]", "\x1b[2J", "\x07", "\r", "\u009b", "\nwarning: forged"} {
			if strings.Contains(all, bad) {
				t.Errorf("%v: %q reached the terminal raw:\nstdout %q\nstderr %q", args, bad, out, errs)
			}
		}
		if args[0] == "ingest" && !strings.Contains(all, `\x1b]0;pwned\x07node`) {
			t.Errorf("%v: the host name is not shown escaped:\n%s", args, out)
		}
		if !strings.Contains(errs, `rank2\x1b[2J.json`) {
			t.Errorf("%v: the broken file is not named (escaped) on stderr:\n%q", args, errs)
		}
	}
}
