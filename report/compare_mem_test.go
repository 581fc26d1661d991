package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

func TestCompareFlagsPeakMemoryRegression(t *testing.T) {
	base, cur := fixed(), fixed()
	if len(base.Stages) < 2 {
		t.Fatal("fixture needs two stages")
	}
	for i := range base.Stages {
		base.Stages[i].PeakMemBytes, cur.Stages[i].PeakMemBytes = 40<<30, 40<<30
	}
	cur.Stages[1].PeakMemBytes = 50 << 30 // +25 %
	var b bytes.Buffer
	if n := CompareText(&b, Compare(base, cur, 0.05)); n != 1 {
		t.Fatalf("%d regressions, want 1:\n%s", n, b.String())
	}
	if !strings.Contains(b.String(), "stage 1 peak memory") || !regexp.MustCompile(`\+25\.0 % +REGRESSION`).MatchString(b.String()) {
		t.Fatalf("table lacks the peak memory regression:\n%s", b.String())
	}
	cur.Stages[1].PeakMemBytes = 40<<30 + 512<<10 // below the 1 MiB floor
	if n := CompareText(&bytes.Buffer{}, Compare(base, cur, 0)); n != 0 {
		t.Fatal("a half-MiB growth was flagged")
	}
	for _, d := range Compare(fixed(), fixed(), 0.05) {
		if strings.Contains(d.Name, "peak memory") {
			t.Fatalf("peak memory compared without memory events: %+v", d)
		}
	}
}
