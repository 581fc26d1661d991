package fuzzmain

import (
	"flag"
	"os"
	"testing"
)

// MinimizeBudget is the default of -fuzzminimizetime under Run. The
// engine minimises every input that finds new coverage before fuzzing on,
// by default for 60 s, and its byte-subset pass is quadratic in the
// input's length: on a 4 KB input it always runs the full 60 s, and
// mutated Parquet or JSON finds new coverage several times a second
// (golang/go#48820). An explicit -fuzzminimizetime still wins (give 60s
// to minimise a crasher harder).
const MinimizeBudget = "500ms"

// minimizeFlag is the testing package's flag behind -fuzzminimizetime.
const minimizeFlag = "test.fuzzminimizetime"

// Run parses the command line, sets -fuzzminimizetime to MinimizeBudget
// unless it was given, runs the tests and exits with their status.
func Run(m *testing.M) {
	flag.Parse()
	if err := Default(flag.CommandLine, minimizeFlag, MinimizeBudget); err != nil {
		panic(err) // the testing package renamed its flag
	}
	os.Exit(m.Run())
}

// Default sets fs's flag name to value unless the command line gave it.
func Default(fs *flag.FlagSet, name, value string) error {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	if given {
		return nil
	}
	return fs.Set(name, value)
}
