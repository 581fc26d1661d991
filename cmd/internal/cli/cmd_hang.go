package cli

import (
	"context"
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/hang"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/flightrec"
	"github.com/tpptrace/tpptrace/model/vocab"
	hangtext "github.com/tpptrace/tpptrace/report/hang"
)

var hangCmd = &Command{
	Name:    "hang",
	Summary: "find the ranks that hang a job, from PyTorch Flight Recorder dumps",
	Usage:   "tpptrace hang [--json] [--all] <dump|dir>...",
	Long: `Reads one Flight Recorder dump per rank (pickle, as written on a watchdog timeout
with TORCH_NCCL_DUMP_ON_TIMEOUT=1, or the JSON variant), matches each process group's
collectives across its ranks, and finds, per group, the first collective where the
ranks disagree: ranks missing from it, mismatched op / size / dtype, or ranks stuck
before a collective their peers completed. The hang is attributed to the group whose
missing ranks are not themselves waiting elsewhere (collectives before point-to-point,
then the earliest); its table row is printed in the layout of NVIDIA's
nvidia-resiliency-ext attribution. Pickles are decoded without executing anything.

Exit status: 0 when the ranks agree everywhere, 3 when a hang or desync is
attributed, 1 on bad input (unreadable dumps, dumps from different jobs).

Examples:
  tpptrace hang /tmp/fr_dumps/
  tpptrace hang --all --json /tmp/nccl_trace_rank_*`,
}

func init() { hangCmd.Run = runHang }

func runHang(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, hangCmd)
	asJSON := fs.Bool("json", false, "print the findings and the culprit as JSON")
	all := fs.Bool("all", false, "also print every group's first disagreements")
	var mem memFlag
	mem.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no dumps given")
	}
	dumps, skips, err := flightrec.ReadDumpsSkipping(fs.Args(), mem.bytes())
	if err != nil {
		return err
	}
	for _, s := range skips {
		fmt.Fprintf(env.Stderr, "warning: skipping %s: %s\n", vocab.Safe(s.Path), vocab.Safe(s.Reason))
	}
	rep, err := hang.Diagnose(dumps)
	if err != nil {
		return err
	}
	hang.Explain(rep, skips)
	if err := writeHang(env, rep, *asJSON, *all); err != nil {
		return err
	}
	return hangStatus(rep)
}

func writeHang(env *Env, rep *result.Hang, asJSON, all bool) error {
	if asJSON {
		return hangtext.WriteJSON(env.Stdout, rep)
	}
	return hangtext.WriteText(env.Stdout, rep, all)
}

func hangStatus(rep *result.Hang) error {
	if rep.Culprit == nil {
		return nil
	}
	msg := fmt.Sprintf("%s ranks %v in process group %s (%s), %s #%d",
		rep.Culprit.Kind, rep.Culprit.Ranks, rep.Culprit.Group, rep.Culprit.Desc, rep.Culprit.Op, rep.Culprit.Seq)
	for _, c := range rep.Culprits[min(1, len(rep.Culprits)):] {
		msg += fmt.Sprintf("; and, independently, %s ranks %v in process group %s (%s)", c.Kind, c.Ranks, c.Group, c.Desc)
	}
	return &CodeError{Code: ExitRegression, Msg: msg}
}
