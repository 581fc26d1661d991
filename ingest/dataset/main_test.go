package dataset

import (
	"flag"
	"os"
	"testing"
)

// fuzzMinimizeBudget is the default of -fuzzminimizetime here. The fuzz
// engine minimises every input that finds new coverage before it goes on,
// by default for 60 s, and its byte-subset pass is quadratic in the
// input's length: on a 4 KB Parquet file it always runs the full 60 s,
// and mutated Parquet finds new coverage several times a second, so
// `-fuzz FuzzReadEvents` showed 0 execs/s for minutes (golang/go#48820;
// docs/fuzzing.md). An explicit -fuzzminimizetime still wins.
const fuzzMinimizeBudget = "500ms"

func TestMain(m *testing.M) {
	flag.Parse()
	if err := defaultFlag(flag.CommandLine, "test.fuzzminimizetime", fuzzMinimizeBudget); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// defaultFlag sets fs's flag name to value unless the command line gave it.
func defaultFlag(fs *flag.FlagSet, name, value string) error {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	if given {
		return nil
	}
	return fs.Set(name, value)
}

func TestDefaultFlag(t *testing.T) {
	if flag.Lookup("test.fuzzminimizetime") == nil {
		t.Fatal("the testing package has no -test.fuzzminimizetime flag any more")
	}
	for _, args := range [][]string{nil, {"-budget", "7s"}} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		budget := fs.String("budget", "60s", "")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		if err := defaultFlag(fs, "budget", "500ms"); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{false: "500ms", true: "7s"}[args != nil]; *budget != want {
			t.Errorf("args %q: budget %s, want %s", args, *budget, want)
		}
	}
}
