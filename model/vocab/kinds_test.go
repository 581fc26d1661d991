package vocab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	docsBegin = "<!-- finding-kinds: generated from vocab.FindingKinds -->\n"
	docsEnd   = "<!-- end finding-kinds -->"
)

// TestDocsListEveryKind: docs/semantics.md holds the registry's table,
// so that a kind added to the registry is documented.
func TestDocsListEveryKind(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "semantics.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), docsBegin)
	table, _, ok2 := strings.Cut(rest, docsEnd)
	if !ok || !ok2 {
		t.Fatalf("docs/semantics.md has no %q … %q block", docsBegin, docsEnd)
	}
	if want := KindsMarkdown(); table != want {
		t.Errorf("docs/semantics.md's finding-kinds table differs from the registry; put there:\n%s", want)
	}
	for _, k := range FindingKinds {
		if !strings.Contains(table, "`"+k.Name+"`") {
			t.Errorf("docs/semantics.md does not list %s", k.Name)
		}
	}
}

func TestRegistryIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range FindingKinds {
		if k.Name == "" || k.Alias == "" || seen[k.Name] || seen[k.Alias] && k.Alias != k.Name {
			t.Errorf("kind %q: empty or repeated name or alias %q", k.Name, k.Alias)
		}
		seen[k.Name], seen[k.Alias] = true, true
		if k.Help == "" || k.Cost == "" || k.Severity == "" {
			t.Errorf("kind %s lacks help, cost or severity text", k.Name)
		}
		if k.Category != "" && !KnownCategory(k.Category) {
			t.Errorf("kind %s: category %q is not a timeline category", k.Name, k.Category)
		}
		if got, ok := LookupKind(k.Alias); !ok || got.Name != k.Name {
			t.Errorf("LookupKind(%q) = %q, %v", k.Alias, got.Name, ok)
		}
	}
	for _, ax := range FindingAxes {
		if _, ok := LookupKind(ExposedKind(ax)); !ok || ExposedKind(ax) == KindExposedOther && ax != AxisOther {
			t.Errorf("axis %s has no exposed kind of its own (%s)", ax, ExposedKind(ax))
		}
	}
}

func TestSeverityOf(t *testing.T) {
	for share, want := range map[float64]string{0.25: SevHigh, 0.20: SevHigh, 0.15: SevMedium, 0.05: SevLow, 0.01: SevInfo} {
		if got := SeverityOf(share); got != want {
			t.Errorf("SeverityOf(%v) = %s, want %s", share, got, want)
		}
	}
}
