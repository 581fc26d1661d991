package cli

import (
	"strings"
	"testing"
)

func TestOutOfRangeLayoutFlagsAreUsageErrors(t *testing.T) {
	in := twoRankDir(t)
	for _, c := range [][]string{{"--tp", "-1"}, {"--pp", "-3"}, {"--dp", "99999999"}, {"--order", "tp-xx"}, {"--order", "tp-tp"}} {
		code, _, errs := execCLI(t, append([]string{"analyze", in}, c...)...)
		if code != ExitUsage {
			t.Errorf("analyze %v: exit %d, want %d (usage):\n%s", c, code, ExitUsage, errs)
		}
		if !strings.Contains(errs, c[0]) {
			t.Errorf("analyze %v: the message does not name the flag:\n%s", c, errs)
		}
	}
}
