package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// TestCompareJUnitShape: the usual JUnit shape (testsuites > testsuite >
// testcase), one case per delta, a failure for each regression carrying
// its delta and threshold, counts that add up.
func TestCompareJUnitShape(t *testing.T) {
	c := mixed()
	var b bytes.Buffer
	if n, err := WriteComparison(&b, c, "junit"); err != nil || n != 3 {
		t.Fatalf("%d regressions, %v", n, err)
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Name               string `xml:"name,attr"`
			Tests, Failures, S int
			Skipped            int `xml:"skipped,attr"`
			Cases              []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	if doc.Tests != len(c.Deltas) || doc.Failures != 3 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != len(c.Deltas) {
		t.Fatalf("tests %d failures %d suites %d, want %d tests, 3 failures:\n%s", doc.Tests, doc.Failures, len(doc.Suites), len(c.Deltas), b.String())
	}
	fails := 0
	for _, tc := range doc.Suites[0].Cases {
		if tc.Classname != "tpptrace.compare" || tc.Name == "" {
			t.Errorf("case %+v", tc)
		}
		if tc.Failure == nil {
			continue
		}
		fails++
		if strings.HasPrefix(tc.Name, "stage[1].bubble_ns") && !strings.Contains(tc.Failure.Message, "14.4 ms → 19.8 ms (+37.5 %), threshold 5.0 %") {
			t.Errorf("failure message %q", tc.Failure.Message)
		}
	}
	if fails != 3 {
		t.Errorf("%d failures, want 3", fails)
	}
}
