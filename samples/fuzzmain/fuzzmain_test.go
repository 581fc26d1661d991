package fuzzmain

import (
	"flag"
	"testing"
)

func TestMain(m *testing.M) { Run(m) }

// TestBudgetIsSet: under Run the testing package's flag holds the budget
// (or what the command line gave), so the flag's name is still right.
func TestBudgetIsSet(t *testing.T) {
	f := flag.Lookup(minimizeFlag)
	if f == nil {
		t.Fatalf("the testing package has no -%s flag any more", minimizeFlag)
	}
	given := false
	flag.Visit(func(g *flag.Flag) { given = given || g.Name == minimizeFlag })
	if !given && f.Value.String() != MinimizeBudget {
		t.Fatalf("-%s is %s, want %s", minimizeFlag, f.Value, MinimizeBudget)
	}
}

func TestDefaultKeepsAGivenFlag(t *testing.T) {
	for _, args := range [][]string{nil, {"-budget", "7s"}} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		budget := fs.String("budget", "60s", "")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		if err := Default(fs, "budget", "500ms"); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{false: "500ms", true: "7s"}[args != nil]; *budget != want {
			t.Errorf("args %q: budget %s, want %s", args, *budget, want)
		}
	}
}
