package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"github.com/tpptrace/tpptrace/ingest/optable"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

var ingestCmd = &Command{
	Name:    "ingest",
	Summary: "read raw traces into a Parquet dataset and summarise them",
	Usage:   "tpptrace ingest [flags] <files|dirs>... [-o <dataset>]",
	Long: `Reads raw traces (PyTorch profiler / Kineto .json and .json.gz, one file per
rank, and the other formats 'tpptrace help' lists), directories of them
(searched recursively) or datasets, checks them, and prints a summary: ranks,
events by kind, iterations, collectives, communicators with their members and
axis, and every skipped item with its reason. With -o it also writes the
normalized trace as a Parquet dataset that 'analyze', 'report' and 'tui' read
much faster than the raw files.

A file that cannot be read (truncated, not JSON, no rank) is reported with its
byte offset and skipped; the others still ingest. The command fails only when
nothing could be read, when two files claim the same rank, or when the
merged trace breaks the model's invariants.

Ranks come from distributedInfo.rank, else the file name (rank3, rank-3,
worker3, _rank_3), else --rank-map.

Examples:
  tpptrace ingest traces/ -o run1.ds
  tpptrace ingest rank0.json.gz rank1.json.gz --json
  tpptrace ingest --rank-map ranks.txt --step-regex '^train_step_(\d+)$' dumps/ -o ds
  tpptrace ingest --shard 3/16 traces/ -o job.ds   # task 3 of 16; then: tpptrace analyze job.ds
ranks.txt holds one 'path-or-basename rank' per line; '#' starts a comment.
--shard K/N reads the K-th of N blocks of the sorted Kineto files (or nsys
exports, when there is no Kineto trace) and writes
DIR/shard=KKKKK/ (a dataset plus shard.json); once all N are written,
'analyze DIR' joins them into the Result one unsharded run gives
(docs/sharding.md: Slurm job arrays, Kubernetes Indexed Jobs).`,
}

func init() { ingestCmd.Run = runIngest }

type ingestFlags struct {
	out, rankMap, stepRegex, shard string
	workers                        int
	json                           bool
	mem                            memFlag
}

func runIngest(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, ingestCmd)
	var f ingestFlags
	fs.StringVar(&f.out, "o", "", "write the dataset to this `directory`")
	fs.StringVar(&f.rankMap, "rank-map", "", "`file` of 'path-or-basename rank' lines for traces that do not name their rank")
	fs.StringVar(&f.stepRegex, "step-regex", "", "`regexp` naming iteration annotations (default ^ProfilerStep#(\\d+)$); its first group is the step number")
	fs.IntVar(&f.workers, "workers", 0, "files read at once (default: number of CPUs)")
	fs.BoolVar(&f.json, "json", false, "print the summary as JSON")
	fs.StringVar(&f.shard, "shard", "", "read only shard `K/N` of the Kineto traces (else nsys exports) and write it into the sharded dataset -o names (docs/sharding.md)")
	f.mem.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no input files or directories")
	}
	opts, err := ingestOptions(env, f)
	if err != nil {
		return err
	}
	return doIngest(ctx, env, f, fs.Args(), opts)
}

func doIngest(ctx context.Context, env *Env, f ingestFlags, paths []string, opts source.Options) error {
	if path, ok := optableArg(paths); ok {
		return ingestOpTable(env, path, f)
	}
	var warns warnings
	opts.Warn = warns.Add
	stop := startProgress(env, &opts)
	t, err := loadForIngest(ctx, f, paths, opts)
	stop()
	warns.flush(env, err)
	if err != nil {
		return err
	}
	if f.out != "" && f.shard == "" {
		if err := dataset.Write(f.out, t, dataset.Manifest{Tool: ToolVersion(), Created: time.Now()}); err != nil {
			return err
		}
	}
	s := ingest.Summarize(t)
	if f.json {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	printSummary(env.Stdout, s, shardOut(f))
	return nil
}

// loadForIngest loads the inputs, or with --shard reads and writes one shard.
func loadForIngest(ctx context.Context, f ingestFlags, paths []string, opts source.Options) (*model.Trace, error) {
	if f.shard == "" {
		return ingest.Load(ctx, paths, opts)
	}
	k, n, err := ingest.ParseShard(f.shard)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if f.out == "" {
		return nil, usagef("--shard needs -o, the sharded dataset's directory")
	}
	return ingest.IngestShard(ctx, paths, opts, k, n, f.out, dataset.Manifest{Tool: ToolVersion(), Created: time.Now()})
}

// shardOut is where the dataset went: -o, or with --shard the shard's directory in it.
func shardOut(f ingestFlags) string {
	if k, _, err := ingest.ParseShard(f.shard); err == nil && f.out != "" {
		return ingest.ShardDir(f.out, k)
	}
	return f.out
}

func ingestOptions(env *Env, f ingestFlags) (source.Options, error) {
	opts := source.Options{Workers: f.workers, MaxMemory: f.mem.bytes()}
	if f.stepRegex != "" {
		re, err := regexp.Compile(f.stepRegex)
		if err != nil {
			return opts, usagef("--step-regex: %v", err)
		}
		opts.StepRegex = re
	}
	if f.rankMap != "" {
		m, err := readRankMap(f.rankMap)
		if err != nil {
			return opts, err
		}
		opts.RankMap = m
	}
	return opts, nil
}

// readRankMap reads 'path-or-basename rank' lines.
func readRankMap(path string) (map[string]int32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("rank map: %w", err)
	}
	defer f.Close()
	m := map[string]int32{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		r, err := strconv.ParseInt(fields[len(fields)-1], 10, 32)
		if len(fields) < 2 || err != nil || r < 0 {
			return nil, &source.FileError{Path: path, Offset: int64(n), Unit: "line", Err: fmt.Errorf("want 'path-or-basename rank', got %q", sc.Text())}
		}
		m[strings.Join(fields[:len(fields)-1], " ")] = int32(r)
	}
	return m, sc.Err()
}

// startProgress draws a progress bar on stderr when it is a terminal.
func startProgress(env *Env, opts *source.Options) func() {
	if !env.IsTTY {
		return func() {}
	}
	var mu sync.Mutex
	last := time.Time{}
	opts.Progress = func(done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		if now := time.Now(); now.Sub(last) > 100*time.Millisecond || done >= total {
			last = now
			fmt.Fprintf(env.Stderr, "\r%s", progressBar(done, total, 30))
		}
	}
	return func() {
		mu.Lock()
		defer mu.Unlock()
		if !last.IsZero() { // erase only a bar that was drawn
			fmt.Fprint(env.Stderr, "\r\033[K")
		}
	}
}

func progressBar(done, total int64, width int) string {
	frac := 1.0
	if total > 0 {
		frac = min(float64(done)/float64(total), 1)
	}
	n := int(frac * float64(width))
	return fmt.Sprintf("reading [%s%s] %3.0f%% %d/%d MB", strings.Repeat("=", n), strings.Repeat(" ", width-n), 100*frac, done>>20, total>>20)
}

// printSummary writes the human-readable summary.
func printSummary(w io.Writer, s ingest.Summary, out string) {
	if out != "" {
		fmt.Fprintf(w, "wrote dataset %s\n", vocab.Safe(out))
	}
	fmt.Fprintf(w, "sources: %d files\nranks: %d\n", s.Sources, len(s.Ranks))
	for _, r := range s.Ranks {
		fmt.Fprintf(w, "  rank %-4d %8d events  %s  %s  %s\n", r.Rank, r.Events, orDash(r.Host), orDash(r.GPU), vocab.Safe(r.Source))
	}
	fmt.Fprintf(w, "events: %d\n", s.Events)
	for _, k := range model.Kinds() {
		if n := s.ByKind[k.String()]; n > 0 {
			fmt.Fprintf(w, "  %-15s %d\n", k, n)
		}
	}
	fmt.Fprintf(w, "iterations: %s\n", iterList(s.Iterations))
	fmt.Fprintf(w, "collectives: %s\n", countList(s.Collectives))
	printComms(w, s.Comms)
	printSkips(w, s.Skipped)
}

func printComms(w io.Writer, cs []ingest.CommSummary) {
	fmt.Fprintf(w, "communicators: %d\n", len(cs))
	for _, c := range cs {
		axis := c.Axis
		if c.AxisBy != "unknown" {
			axis += " (by " + c.AxisBy + ")"
		}
		fmt.Fprintf(w, "  %-8s %-30s axis %-22s members %s  kernels %d\n", vocab.Safe(c.ID), orDash(c.Desc), axis, intList(c.Members), c.Kernels)
	}
}

// printSkips lists each positioned record (a bad file, a bad event) on its
// own line, and folds the unpositioned ones (unused categories) by reason
// across files; --json has every record.
func printSkips(w io.Writer, rows []ingest.SkipRow) {
	fmt.Fprintf(w, "skipped: %d records\n", len(rows))
	type fold struct {
		count int64
		files int
	}
	folded, order := map[string]*fold{}, []string{}
	for _, k := range rows {
		if k.Offset >= 0 && k.Unit != "" {
			fmt.Fprintf(w, "  %s (%s %d): %s ×%d\n", vocab.Safe(k.Source), k.Unit, k.Offset, vocab.Safe(k.Reason), k.Count)
			continue
		}
		if folded[k.Reason] == nil {
			folded[k.Reason] = &fold{}
			order = append(order, k.Reason)
		}
		folded[k.Reason].count += k.Count
		folded[k.Reason].files++
	}
	for _, r := range order {
		fmt.Fprintf(w, "  %s: ×%d in %d files\n", vocab.Safe(r), folded[r].count, folded[r].files)
	}
}

// orDash is s fit for a terminal, or "-" when empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return vocab.Safe(s)
}

func iterList(its []int32) string {
	if len(its) == 0 {
		return "none found"
	}
	return fmt.Sprintf("%d (%d..%d)", len(its), its[0], its[len(its)-1])
}

func countList(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func intList(rs []int32) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = strconv.Itoa(int(r))
	}
	return strings.Join(parts, ",")
}

// ingestOpTable checks an op table (trace-*.parquet, docs/whatif.md) and
// with -o stores it as the dataset that analyze, whatif, report and tui
// read; it prints what the table holds.
func ingestOpTable(env *Env, path string, f ingestFlags) error {
	t, err := optable.ReadFile(path)
	if err != nil {
		return err
	}
	if f.out != "" {
		if err := optable.Store(path, f.out); err != nil {
			return err
		}
	}
	workers, steps := map[int32]bool{}, map[int64]bool{}
	for i := range t.Len() {
		workers[t.Rank[i]], steps[t.Step[i]] = true, true
	}
	s := opTableSummary{Path: path, Out: f.out, Workers: len(workers), Steps: len(steps), Ops: t.Len(), OpTypes: t.OpTypes}
	if f.json {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	fmt.Fprintf(env.Stdout, "op table %s: %d workers, %d steps, %d ops of %d types\n", vocab.Safe(path), s.Workers, s.Steps, s.Ops, len(s.OpTypes))
	if f.out != "" {
		fmt.Fprintf(env.Stdout, "wrote %s (analyze, whatif, report and tui read it)\n", vocab.Safe(f.out))
	}
	return nil
}

// opTableSummary is ingest's summary of an op table.
type opTableSummary struct {
	Path    string   `json:"path"`
	Out     string   `json:"out,omitempty"`
	Workers int      `json:"workers"`
	Steps   int      `json:"steps"`
	Ops     int      `json:"ops"`
	OpTypes []string `json:"op_types"`
}
