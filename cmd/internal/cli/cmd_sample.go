package cli

import (
	"context"
	"errors"
	"fmt"
	"os/signal"
	"syscall"

	"github.com/tpptrace/tpptrace/ingest/nvml"
	"github.com/tpptrace/tpptrace/ingest/nvml/live"
)

var sampleCmd = &Command{
	Name:    "sample",
	Summary: "sample this node's GPUs with NVML into Parquet, beside a training job",
	Usage:   "tpptrace sample [--interval 100ms] [--duration 10m] [--flush 10s] -o samples.parquet",
	Long: `Samples every GPU on this node through NVML until --duration has passed or the process
gets SIGINT/SIGTERM: SM and memory utilization, SM and memory clocks, power and its limit,
temperature, memory used, clock-event (throttle) reasons, PCIe and NVLink throughput, ECC
errors, XID events, and GPM SM/tensor utilization where the GPU has GPM. Each row carries the
host, GPU index, UUID and PCI bus id, so that 'tpptrace analyze traces/ samples.parquet' can
join the samples to the ranks of a trace and cite what a slow rank's GPU did.

Rows are written incrementally: every --flush interval they become a complete Parquet part in
<out>.parts/, so a killed sampler loses at most one interval; on a clean stop the parts are
joined into <out>. Both forms are accepted as input.

Run one sampler per node, started before the job:
  tpptrace sample -o /shared/run42/samples-$(hostname).parquet &

The sampler is built with the nvml tag (go install -tags nvml ./cmd/tpptrace, with cgo on
Linux); a build without it, or a machine without an NVIDIA driver, exits with code 4 and says so.`,
}

func init() { sampleCmd.Run = runSample }

func runSample(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, sampleCmd)
	out := fs.String("o", "", "output Parquet file (required)")
	var o nvml.Options
	fs.DurationVar(&o.Interval, "interval", 100e6, "time between sampling passes")
	fs.DurationVar(&o.Duration, "duration", 0, "stop after this long (0: until SIGINT/SIGTERM)")
	fs.DurationVar(&o.Flush, "flush", 10e9, "time between part files (at most this much is lost if killed)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		return usagef("need -o FILE and no arguments")
	}
	return sampleTo(ctx, env, *out, o)
}

func sampleTo(ctx context.Context, env *Env, out string, o nvml.Options) error {
	src, err := live.OpenSystem()
	if errors.Is(err, nvml.ErrNoDriver) || errors.Is(err, nvml.ErrNoNVML) {
		return &CodeError{Code: ExitNoDevice, Msg: err.Error()}
	}
	if err != nil {
		return err
	}
	defer src.Close()
	w, err := nvml.NewWriter(out)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if env.IsTTY {
		o.OnPass = func(rows int) { fmt.Fprintf(env.Stderr, "\rsampling: %d rows", rows) }
	}
	if err := nvml.Run(ctx, src, w, o); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "\nwrote %d rows to %s\n", w.Rows(), out)
	return nil
}
