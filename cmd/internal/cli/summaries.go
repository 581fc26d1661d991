package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/analysis/summary"
	"github.com/tpptrace/tpptrace/model"
	rpt "github.com/tpptrace/tpptrace/report"
)

// summaryFlags are what the summary commands (breakdown, kernels, nccl,
// nvtx) share: the inputs and the output format.
type summaryFlags struct {
	in            inputFlags
	asJSON, asCSV bool
}

func (s *summaryFlags) register(fs *flag.FlagSet) {
	s.in.register(fs)
	fs.BoolVar(&s.asJSON, "json", false, "write the rows as JSON")
	fs.BoolVar(&s.asCSV, "csv", false, "write the rows as CSV (raw values: ns, bytes, percentages as numbers)")
}

func (s *summaryFlags) format() (string, error) {
	switch {
	case s.asJSON && s.asCSV:
		return "", usagef("give --json or --csv, not both")
	case s.asJSON:
		return "json", nil
	case s.asCSV:
		return "csv", nil
	}
	return "text", nil
}

// summaryInput is the model, its Result and the analysed steps' window.
type summaryInput struct {
	t   *model.Trace
	res *result.Result
	w   summary.Window
}

// load reads and analyses the inputs; a Result file has no events to
// summarise.
func (s *summaryFlags) load(ctx context.Context, env *Env, args []string) (summaryInput, error) {
	res, t, err := s.in.load(ctx, env, args)
	if err != nil {
		return summaryInput{}, err
	}
	if t == nil {
		return summaryInput{}, fmt.Errorf("%s is a Result file: summaries need the traces or a dataset", args[0])
	}
	return summaryInput{t: t, res: res, w: summary.StepsOf(t, res)}, nil
}

// windowName says what a window covers: "the 4 analysed steps", "the whole trace".
func windowName(w summary.Window) string {
	if w.All {
		return "the whole trace"
	}
	return fmt.Sprintf("the %s analysed", plural(w.Steps(), "step"))
}

// runSummary parses args for cmd with its own flags (extra, checked by
// check), loads the inputs and writes the summary build makes.
func runSummary(ctx context.Context, env *Env, cmd *Command, args []string, extra func(*flag.FlagSet),
	build func(summaryInput) (rpt.Summary, error), check func() error) error {
	fs := newFlags(env, cmd)
	var sf summaryFlags
	sf.register(fs)
	if extra != nil {
		extra(fs)
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	format, err := sf.format()
	if err == nil && check != nil {
		err = check()
	}
	if err != nil {
		return err
	}
	in, err := sf.load(ctx, env, fs.Args())
	if err != nil {
		return err
	}
	s, err := build(in)
	if err != nil {
		return err
	}
	return rpt.WriteSummary(env.Stdout, s, format)
}
