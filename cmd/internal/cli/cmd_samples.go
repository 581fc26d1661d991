package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/kinetow"
	"github.com/tpptrace/tpptrace/samples/ncclw"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/nvmlw"
)

var samplesCmd = &Command{
	Name:    "samples",
	Summary: "generate simulated TP/PP/DP jobs (Kineto, nsys, NCCL, NVML files + truth.json)",
	Usage:   "tpptrace samples list | tpptrace samples gen [--scenario NAME] [--formats LIST] [flags] -o DIR",
	Long: `
'samples list' prints the named scenarios. 'samples gen' simulates a Megatron-style
TP×PP×DP training job and writes it into DIR in each form --formats names
(comma-separated, default kineto), always with truth.json (the figures analysis
must recover, per docs/semantics.md) and job.json (the configuration):

  kineto          DIR/rank-<r>.pt.trace.json.gz, one PyTorch profiler trace per rank
  nsys            DIR/nsys/report_rank<r>.sqlite, one Nsight Systems SQLite export per rank
  nsys-real       DIR/nsys-real/report_rank<r>.sqlite, the same as a plain 'nsys profile -t cuda,nvtx'
                  records it: NCCL ranges with communicator hashes, ncclCommSplit membership, step
                  ranges named "train_step N"; no PyTorch, phase or process-group names
  nccl-log        DIR/nccl/nccl.<host>.log, NCCL_DEBUG=INFO output per host (with PyTorch's
                  ProcessGroupNCCL lines)
  nccl-inspector  DIR/nccl-inspector/<host>-pid<pid>.log, NCCL Inspector records per process
                  (communicators named "TP Group 0", ...)
  nvml            DIR/nvml/samples-<host>.parquet, GPU samples as 'tpptrace sample' writes them

Every form describes the same simulated run. Kineto and nsys both hold the
timelines: analyse one of them (with the NCCL and NVML files), not both. Flags
given after --scenario override the scenario's values. See docs/generator.md.

Examples:
  tpptrace samples list
  tpptrace samples gen --scenario slow-rank -o /tmp/slow
  tpptrace samples gen --scenario default --formats kineto,nccl-log,nvml -o /tmp/d
  tpptrace samples gen --tp 2 --pp 4 --dp 1 --microbatches 16 --schedule gpipe -o /tmp/g
  tpptrace samples gen --scenario default --slow-rank 9 --seed 3 -o /tmp/d
  tpptrace samples gen --scenario big-64 --dp 64 -o /tmp/j1024     # 1,024 ranks, for the scale benchmark
  tpptrace samples gen --scenario big-64 --tp 8 --dp 128 -o /tmp/j4096
Jobs of 256 ranks or more report progress on stderr.`,
}

func init() { samplesCmd.Run = runSamples }

func runSamples(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fs, _ := genFlagSet(env)
		return parse(fs, []string{"-h"})
	}
	switch args[0] {
	case "list":
		for _, s := range samples.Scenarios {
			fmt.Fprintf(env.Stdout, "%-16s %s\n", s.Name, s.Summary)
		}
		return nil
	case "gen":
		return samplesGen(env, args[1:])
	}
	return usagef("unknown subcommand %q: want list or gen", args[0])
}

// genFlags are the overridable configuration fields.
type genFlags struct {
	scenario, out, schedule, formats, dialect                 string
	tp, pp, dp, micro, layers, slowRank, steps, gpus, buckets int
	virtual, lateRank, cp, ep                                 int
	slowFactor, tokenSpread                                   float64
	seed, maxOffset, lateNs, endSkew                          int64
	dpOverlap, distOpt, p2pMeta, p2pNoSeq, descs, cut, seqPar bool
}

// genFlagSet declares gen's flags.
func genFlagSet(env *Env) (*flag.FlagSet, *genFlags) {
	fs := newFlags(env, samplesCmd)
	g := &genFlags{}
	fs.StringVar(&g.scenario, "scenario", "default", "named scenario to start from ('tpptrace samples list')")
	fs.StringVar(&g.out, "o", "", "output directory (required)")
	fs.StringVar(&g.formats, "formats", "kineto", "forms to write, comma-separated: "+strings.Join(genFormatNames(), ","))
	fs.StringVar(&g.dialect, "dialect", "tpptrace", "how the traces record the CPU side: "+dialectNames()+" (../shared/reference/dialects.md)")
	fs.StringVar(&g.schedule, "schedule", "", "pipeline schedule: 1f1b, gpipe or interleaved (with --virtual-stages)")
	fs.IntVar(&g.virtual, "virtual-stages", 0, "interleaved schedule: model chunks per stage (v >= 2; m a multiple of pp)")
	fs.IntVar(&g.lateRank, "late-rank", 0, "rank whose host launches each collective late (-1: none)")
	fs.Int64Var(&g.lateNs, "late-ns", 0, "how late the --late-rank launches its collectives, ns")
	fs.Int64Var(&g.endSkew, "end-skew-ns", 0, "collective members end up to this many ns apart (default 3000)")
	fs.BoolVar(&g.cut, "cut-last-step", false, "the capture ends half-way through the last step on the upper half of the ranks")
	fs.BoolVar(&g.seqPar, "seq-parallel", false, "sequence parallelism: TP reduce-scatter + all-gather instead of all-reduce")
	fs.Float64Var(&g.tokenSpread, "token-spread", 0, "microbatch message sizes vary by 1 ± this (0..0.9)")
	fs.IntVar(&g.tp, "tp", 0, "tensor-parallel size")
	fs.IntVar(&g.pp, "pp", 0, "pipeline-parallel size (stages)")
	fs.IntVar(&g.dp, "dp", 0, "data-parallel size")
	fs.IntVar(&g.cp, "cp", 0, "context-parallel size (K/V all-gather per layer)")
	fs.IntVar(&g.ep, "ep", 0, "expert-parallel size (every layer MoE: all-to-all dispatch and combine)")
	fs.IntVar(&g.micro, "microbatches", 0, "microbatches per step (m)")
	fs.IntVar(&g.layers, "layers", 0, "transformer layers per stage")
	fs.IntVar(&g.slowRank, "slow-rank", 0, "rank whose kernels run slower (-1: none)")
	fs.Float64Var(&g.slowFactor, "slow-factor", 0, "slow rank's kernel time multiplier, e.g. 1.2")
	fs.IntVar(&g.steps, "steps", 0, "ProfilerSteps written")
	fs.IntVar(&g.gpus, "gpus-per-host", 0, "GPUs per host (ranks 0..n-1 on node000, ...)")
	fs.IntVar(&g.buckets, "dp-buckets", 0, "gradient buckets of the DP sync")
	fs.Int64Var(&g.seed, "seed", 0, "random seed (jitter, host offsets)")
	fs.Int64Var(&g.maxOffset, "max-host-offset-ns", 0, "bound of the planted per-host clock offsets")
	fs.BoolVar(&g.dpOverlap, "dp-overlap", false, "overlap the DP gradient sync with the last backward")
	fs.BoolVar(&g.distOpt, "dist-optimizer", false, "reduce-scatter gradients and all-gather parameters")
	fs.BoolVar(&g.p2pMeta, "p2p-metadata", true, "PP send/recv kernels carry metadata (false: batched p2p)")
	fs.BoolVar(&g.p2pNoSeq, "p2p-no-seq", false, "PP send/recv kernels carry their process group but no Seq and no peer")
	fs.BoolVar(&g.descs, "descriptions", true, "process groups carry Megatron descriptions")
	return fs, g
}

func samplesGen(env *Env, args []string) error {
	fs, g := genFlagSet(env)
	if err := parse(fs, args); err != nil {
		return err
	}
	if g.out == "" || fs.NArg() > 0 {
		return usagef("gen needs -o DIR and no arguments")
	}
	writers, err := genWriters(g.formats)
	if err != nil {
		return usagef("%v", err)
	}
	cfg, err := samples.Lookup(g.scenario)
	if err != nil {
		return usagef("%v", err)
	}
	fs.Visit(func(f *flag.Flag) { g.apply(&cfg, f.Name) })
	long := cfg.World() >= longJob
	if long {
		fmt.Fprintf(env.Stderr, "simulating %d ranks ...\n", cfg.World())
	}
	job, err := samples.Simulate(cfg)
	if err != nil {
		return err
	}
	if long {
		writers = withProgress(env, writers)
	}
	if err := writeJob(g.out, job, writers); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %d ranks (%d events, step %.2f ms) as %s to %s\n", cfg.World(), job.Trace.Events.Len(), float64(job.Truth.StepNs)/1e6, g.formats, g.out)
	return nil
}

// apply copies the flag named name into cfg.
func (g *genFlags) apply(cfg *samples.Config, name string) {
	switch name {
	case "schedule":
		cfg.Schedule = g.schedule
	case "dialect":
		cfg.Dialect = g.dialect
		if d, err := samples.ParseDialect(g.dialect); err == nil {
			cfg.Dialect = d
		}
	case "tp":
		cfg.TP = g.tp
	case "pp":
		cfg.PP = g.pp
		cfg.StageScale = nil
	case "dp":
		cfg.DP = g.dp
	case "cp":
		cfg.CP = g.cp
	case "ep":
		cfg.EP = g.ep
	case "microbatches":
		cfg.Microbatches = g.micro
	case "layers":
		cfg.LayersPerStage = g.layers
	case "slow-rank":
		cfg.SlowRank = g.slowRank
	case "slow-factor":
		cfg.SlowFactor = g.slowFactor
	case "steps":
		cfg.Steps = g.steps
	case "gpus-per-host":
		cfg.GPUsPerHost, cfg.HostOffsetsNs = g.gpus, nil
	case "dp-buckets":
		cfg.DPBuckets = g.buckets
	case "seed":
		cfg.Seed = g.seed
	case "max-host-offset-ns":
		cfg.MaxHostOffsetNs, cfg.HostOffsetsNs = g.maxOffset, nil
	case "dp-overlap":
		cfg.DPOverlap = g.dpOverlap
	case "dist-optimizer":
		cfg.DistOptimizer = g.distOpt
	case "p2p-metadata":
		cfg.P2PMetadata = g.p2pMeta
	case "p2p-no-seq":
		cfg.P2PNoSeq = g.p2pNoSeq
	case "descriptions":
		cfg.Descriptions = g.descs
	case "virtual-stages":
		cfg.VirtualStages = g.virtual
	case "cut-last-step":
		cfg.CutLastStep = g.cut
	case "seq-parallel":
		cfg.SeqParallel = g.seqPar
	case "token-spread":
		cfg.TokenSpread = g.tokenSpread
	case "late-rank":
		cfg.LateRank = g.lateRank
	case "late-ns":
		cfg.LateNs = g.lateNs
	case "end-skew-ns":
		cfg.EndSkewNs = g.endSkew
	}
}

// longJob is the world size from which 'samples gen' reports progress.
const longJob = 256

// withProgress makes the Kineto writer report, on stderr, each tenth of
// the rank files written.
func withProgress(env *Env, writers []genWriter) []genWriter {
	out := slices.Clone(writers)
	for i, w := range out {
		if w.name != "kineto" {
			continue
		}
		out[i].write = func(dir string, job *samples.Job) error {
			last := 0
			return kinetow.WriteDirProgress(dir, job, func(done, total int) {
				if tenth := 10 * done / total; tenth > last {
					last = tenth
					fmt.Fprintf(env.Stderr, "kineto: %d/%d rank files written\n", done, total)
				}
			})
		}
	}
	return out
}

// genWriter writes a job in one form into an output directory.
type genWriter struct {
	name  string
	write func(dir string, job *samples.Job) error
}

// genFormats are the forms 'samples gen --formats' knows, in writing order.
var genFormats = []genWriter{
	{"kineto", func(dir string, job *samples.Job) error { return kinetow.WriteDir(dir, job) }},
	{"nsys", func(dir string, job *samples.Job) error {
		_, err := nsysw.Write(filepath.Join(dir, "nsys"), job.Trace, nsysw.Options{})
		return err
	}},
	{"nsys-real", func(dir string, job *samples.Job) error {
		_, err := nsysw.Write(filepath.Join(dir, "nsys-real"), job.Trace, nsysw.Options{Dialect: nsysw.DialectReal})
		return err
	}},
	{"nccl-log", func(dir string, job *samples.Job) error {
		_, err := ncclw.WriteLogs(filepath.Join(dir, "nccl"), job)
		return err
	}},
	{"nccl-inspector", func(dir string, job *samples.Job) error {
		_, err := ncclw.WriteInspectorDir(filepath.Join(dir, "nccl-inspector"), job, ncclw.InspectorOptions{CommNames: true})
		return err
	}},
	{"nvml", func(dir string, job *samples.Job) error {
		if err := os.MkdirAll(filepath.Join(dir, "nvml"), 0o755); err != nil {
			return err
		}
		_, err := nvmlw.Write(filepath.Join(dir, "nvml"), job)
		return err
	}},
}

func genFormatNames() []string {
	names := make([]string, len(genFormats))
	for i, f := range genFormats {
		names[i] = f.name
	}
	return names
}

// genWriters picks the writers a --formats list names.
func genWriters(list string) ([]genWriter, error) {
	var out []genWriter
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(genFormats, func(f genWriter) bool { return f.name == name })
		if i < 0 {
			return nil, fmt.Errorf("unknown format %q in --formats (want %s)", name, strings.Join(genFormatNames(), ", "))
		}
		if !slices.ContainsFunc(out, func(f genWriter) bool { return f.name == name }) {
			out = append(out, genFormats[i])
		}
	}
	return out, nil
}

// writeJob writes truth.json and job.json (through the Kineto writer when
// Kineto is asked for), then every requested form.
func writeJob(dir string, job *samples.Job, writers []genWriter) error {
	if !slices.ContainsFunc(writers, func(f genWriter) bool { return f.name == "kineto" }) {
		if err := writeMeta(dir, job); err != nil {
			return err
		}
	}
	for _, w := range writers {
		if err := w.write(dir, job); err != nil {
			return fmt.Errorf("samples gen: %s: %w", w.name, err)
		}
	}
	return nil
}

// writeMeta writes truth.json and job.json as kinetow.WriteDir does.
func writeMeta(dir string, job *samples.Job) error {
	truth, err := kinetow.MarshalTruth(job)
	if err != nil {
		return fmt.Errorf("samples gen: %w", err)
	}
	cfg, err := json.MarshalIndent(job.Config, "", "  ")
	if err != nil {
		return fmt.Errorf("samples gen: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("samples gen: %w", err)
	}
	for name, b := range map[string][]byte{"truth.json": truth, "job.json": append(cfg, '\n')} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("samples gen: %w", err)
		}
	}
	return nil
}

// dialectNames lists the generator's dialects for the help.
func dialectNames() string {
	names := make([]string, len(samples.Dialects))
	for i, d := range samples.Dialects {
		names[i] = samples.DialectName(d)
	}
	return strings.Join(names, ", ")
}
