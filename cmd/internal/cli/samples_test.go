package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestSamplesGenEveryFormat writes a small job in every form and reads the
// files back: the Kineto traces with the NCCL and NVML files in one load,
// the nsys exports in another, neither skipping anything.
func TestSamplesGenEveryFormat(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := execCLI(t, "samples", "gen", "--scenario", "slow-rank", "--steps", "2",
		"--formats", "kineto,nsys,nccl-log,nccl-inspector,nvml", "-o", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cfg, _ := samples.Lookup("slow-rank")
	world := cfg.World()
	var kineto, nsys []string
	for r := range world {
		kineto = append(kineto, filepath.Join(dir, fmt.Sprintf("rank-%d.pt.trace.json.gz", r)))
		nsys = append(nsys, filepath.Join(dir, "nsys", fmt.Sprintf("report_rank%d.sqlite", r)))
	}
	host := cfg.Host(0)
	others := []string{filepath.Join(dir, "nccl", "nccl."+host+".log"),
		filepath.Join(dir, "nccl-inspector", fmt.Sprintf("%s-pid%d.log", host, samples.PID(0))),
		filepath.Join(dir, "nvml", "samples-"+host+".parquet"), filepath.Join(dir, "truth.json"), filepath.Join(dir, "job.json")}
	for _, p := range append(append(append([]string{}, kineto...), nsys...), others...) {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("missing %v", err)
		}
	}
	withNCCL := append(kineto, filepath.Join(dir, "nccl"), filepath.Join(dir, "nccl-inspector"), filepath.Join(dir, "nvml"))
	tr := loadClean(t, withNCCL, map[string]bool{"kineto": true, "nccl-log": true, "nccl-inspector": true, "nvml-samples": true})
	if len(tr.Ranks) != world || tr.Ranks[world-1].Host != cfg.Host(world-1) || tr.Samples.Len() == 0 {
		t.Errorf("merged load: %d ranks (want %d), last host %q, %d GPU samples", len(tr.Ranks), world, tr.Ranks[len(tr.Ranks)-1].Host, tr.Samples.Len())
	}
	if tr := loadClean(t, []string{filepath.Join(dir, "nsys")}, nil); len(tr.Ranks) != world {
		t.Errorf("nsys load: %d ranks, want %d", len(tr.Ranks), world)
	}
}

// loadClean loads paths and fails on any skip but the Kineto reader's notes
// on event categories it does not use; formats, when given, are the source
// formats the trace must hold, all of them.
func loadClean(t *testing.T, paths []string, formats map[string]bool) *model.Trace {
	t.Helper()
	tr := sampletest.Load(t, source.Options{}, paths...)
	for _, s := range tr.Skipped {
		if strings.HasPrefix(s.Reason, "category ") && strings.HasSuffix(s.Reason, " is not used") {
			continue
		}
		t.Errorf("skipped %s: %s", s.Source, s.Reason)
	}
	seen := map[string]bool{}
	for _, s := range tr.Sources {
		seen[s.Format] = true
	}
	for f := range formats {
		if !seen[f] {
			t.Errorf("no %s source among %v", f, seen)
		}
	}
	return tr
}

func TestSamplesGenUnknownFormat(t *testing.T) {
	code, _, stderr := execCLI(t, "samples", "gen", "--formats", "kineto,pcap", "-o", t.TempDir())
	if code != ExitUsage || !strings.Contains(stderr, `unknown format "pcap"`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestSamplesGenScheduleFlags(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := execCLI(t, "samples", "gen", "--scenario", "balanced-1f1b", "--tp", "1", "--dp", "1",
		"--schedule", "interleaved", "--virtual-stages", "2", "--cut-last-step", "--seq-parallel", "-o", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "job.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg samples.Config
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Schedule != "interleaved" || cfg.VirtualStages != 2 || !cfg.CutLastStep || !cfg.SeqParallel {
		t.Fatalf("flags not applied: %+v", cfg)
	}
	if code, _, _ := execCLI(t, "samples", "gen", "--schedule", "interleaved", "--virtual-stages", "3", "-o", t.TempDir()); code == ExitOK {
		t.Fatal("v=3 does not divide the default job's layers per stage: gen must reject it")
	}
}
