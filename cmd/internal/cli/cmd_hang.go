package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tpptrace/tpptrace/ingest/model/vocab"
	"github.com/tpptrace/tpptrace/ingest/nccl"
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
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no dumps given")
	}
	dumps, skips, err := nccl.ReadDumpsSkipping(fs.Args())
	if err != nil {
		return err
	}
	for _, s := range skips {
		fmt.Fprintf(env.Stderr, "warning: skipping %s: %s\n", vocab.Safe(s.Path), vocab.Safe(s.Reason))
	}
	rep, err := nccl.Diagnose(dumps)
	if err != nil {
		return err
	}
	rep.Explain(skips)
	if err := writeHang(env, rep, *asJSON, *all); err != nil {
		return err
	}
	return hangStatus(rep)
}

func writeHang(env *Env, rep *nccl.HangReport, asJSON, all bool) error {
	if asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep = safeHang(rep)
	if err := nccl.WriteAttribution(env.Stdout, rep); err != nil {
		return err
	}
	writeNoDump(env, rep)
	if all {
		fmt.Fprintln(env.Stdout)
		return nccl.WriteFindings(env.Stdout, rep)
	}
	return nil
}

// writeNoDump names each rank without a usable dump: the attribution above
// cannot see it, and it may be the culprit.
func writeNoDump(env *Env, rep *nccl.HangReport) {
	for _, n := range rep.NoDump {
		why := n.Reason
		if n.Path != "" {
			why = n.Path + ": " + n.Reason
		}
		fmt.Fprintf(env.Stdout, "rank %d: no usable dump (%s) — it may be the culprit\n", n.Rank, vocab.Safe(why))
	}
}

func hangStatus(rep *nccl.HangReport) error {
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

// safeHang is a copy of rep whose strings from the dumps (group names and
// descriptions, ops, shapes, dtypes) are fit for a terminal (vocab.Safe).
func safeHang(rep *nccl.HangReport) *nccl.HangReport {
	out := *rep
	out.Findings = make([]nccl.Finding, len(rep.Findings))
	for i, f := range rep.Findings {
		out.Findings[i] = safeFinding(f)
	}
	out.Culprits = make([]nccl.Finding, len(rep.Culprits))
	for i, f := range rep.Culprits {
		out.Culprits[i] = safeFinding(f)
	}
	if rep.Culprit != nil {
		c := safeFinding(*rep.Culprit)
		out.Culprit = &c
	}
	return &out
}

func safeFinding(f nccl.Finding) nccl.Finding {
	for _, p := range []*string{&f.Group, &f.Desc, &f.Kind, &f.Op, &f.Size, &f.DType, &f.Detail} {
		*p = vocab.Safe(*p)
	}
	return f
}
