package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
)

// JUnit's usual shape: testsuites > testsuite > testcase [> failure].
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string      `xml:"name,attr"`
	Tests      int         `xml:"tests,attr"`
	Failures   int         `xml:"failures,attr"`
	Errors     int         `xml:"errors,attr"`
	Skipped    int         `xml:"skipped,attr"`
	Properties []junitProp `xml:"properties>property,omitempty"`
	Cases      []junitCase `xml:"testcase"`
	Output     string      `xml:"system-out,omitempty"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *struct{}     `xml:"skipped,omitempty"`
	Output    string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// CompareJUnit writes c as a JUnit XML report: one test case per gated
// figure (classname tpptrace.compare, name the figure's id), a failure
// for each regression carrying its delta and threshold; figures shown but
// not gated are skipped cases; the suite's system-out carries the
// warnings and what changed (kernels added, removed, grown).
func CompareJUnit(w io.Writer, c *Comparison) error {
	s := junitSuite{Name: "tpptrace compare", Properties: []junitProp{{"base", c.Base.String()}, {"new", c.New.String()}},
		Output: strings.Join(append(slices.Clone(c.Warnings), c.Changes.KernelLines()...), "\n")}
	for _, d := range c.Deltas {
		s.Cases = append(s.Cases, junitCaseOf(d))
	}
	for _, tc := range s.Cases {
		s.Tests++
		switch {
		case tc.Failure != nil:
			s.Failures++
		case tc.Skipped != nil:
			s.Skipped++
		}
	}
	doc := junitSuites{Name: "tpptrace", Tests: s.Tests, Failures: s.Failures, Suites: []junitSuite{s}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", xml.Header, b)
	return err
}

func junitCaseOf(d Delta) junitCase {
	tc := junitCase{Name: d.ID + " (" + d.Name + ")", Classname: "tpptrace.compare",
		Output: fmt.Sprintf("base %s, new %s, change %s", d.BaseText(), d.NewText(), d.ChangeText())}
	switch {
	case d.Regressed:
		msg := fmt.Sprintf("%s regressed: %s → %s (%s), threshold %s", d.Name, d.BaseText(), d.NewText(), d.ChangeText(), d.Threshold)
		if d.Spread > 0 {
			msg += ", spread " + d.SpreadText()
		}
		tc.Failure = &junitFailure{Message: msg, Type: "regression", Text: msg}
	case !d.Gated:
		tc.Skipped = &struct{}{}
	}
	return tc
}
