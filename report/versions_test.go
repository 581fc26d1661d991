package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

// TestCompareSaysTheSoftwareChanged: runs taken with other software
// versions stay comparable, and the changes name the versions.
func TestCompareSaysTheSoftwareChanged(t *testing.T) {
	base, cur := fixture.Result(fixture.Small()), fixture.Result(fixture.Small())
	base.Sources = []result.Source{{Path: "a/r0.sqlite", Format: "nsys", Version: "2025.1.1"}, {Path: "a/r1.sqlite", Format: "nsys", Version: "2025.1.1"}}
	cur.Sources = []result.Source{{Path: "b/r0.sqlite", Format: "nsys", Version: "2025.3.2"}}
	c := NewComparison("base.json", base, "new.json", cur, 0.05)
	if err := c.Comparable(); err != nil {
		t.Fatalf("other software versions made the runs not comparable: %v", err)
	}
	if v := c.Changes.Versions; v == nil || !slices.Equal(v.Base, []string{"nsys 2025.1.1"}) || !slices.Equal(v.New, []string{"nsys 2025.3.2"}) {
		t.Fatalf("versions change %+v", c.Changes.Versions)
	}
	if lines := strings.Join(c.Changes.Lines(), "\n"); !strings.Contains(lines, "software versions differ: base nsys 2025.1.1, new nsys 2025.3.2") {
		t.Errorf("changes say:\n%s", lines)
	}
	same := NewComparison("base.json", base, "new.json", base, 0.05)
	if same.Changes.Versions != nil {
		t.Errorf("a run compared with itself has a versions change %+v", same.Changes.Versions)
	}
}
