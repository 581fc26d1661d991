package analysis_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
	"github.com/tpptrace/tpptrace/samples/kinetow"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestMissingSlowRankIsNamed: the default scenario written as Kineto
// traces without the planted slow rank's file is a 15-rank job that
// declares 16. The slow rank is named missing, in the Result and in a
// high finding that comes first and says how the size was known.
func TestMissingSlowRankIsNamed(t *testing.T) {
	job := sampletest.Job(t, "default")
	slow := job.Config.SlowRank
	dir := sampletest.KinetoDir(t, job)
	if err := os.Remove(filepath.Join(dir, kinetow.FileName(slow))); err != nil {
		t.Fatal(err)
	}
	res := loadAndAnalyze(t, dir)
	world := job.Config.World()
	checkMissing(t, res, slow, world, fmt.Sprintf("distributedInfo.world_size = %d in %d traces", world, world-1))
	f := res.Findings[0]
	if !slices.ContainsFunc(prose.Evidence(res, f), func(e string) bool {
		return strings.HasPrefix(e, "communicator ") && strings.HasSuffix(e, fmt.Sprintf("lists rank %d", slow))
	}) {
		t.Errorf("no evidence names a process group listing rank %d: %q", slow, prose.Evidence(res, f))
	}
}

// TestMissingRankFromNsysWorldSize: the same job as per-rank nsys exports
// without the slow rank's report: WORLD_SIZE and the world communicator's
// "No. of ranks" both declare 16.
func TestMissingRankFromNsysWorldSize(t *testing.T) {
	job := sampletest.Job(t, "default")
	slow, world := job.Config.SlowRank, job.Config.World()
	paths, err := nsysw.WriteDir(t.TempDir(), job, nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	paths = slices.DeleteFunc(paths, func(p string) bool { return filepath.Base(p) == fmt.Sprintf("report_rank%d.sqlite", slow) })
	if len(paths) != world-1 {
		t.Fatalf("%d reports left, want %d", len(paths), world-1)
	}
	res := analyzeTrace(t, sampletest.Load(t, source.Options{}, paths...))
	checkMissing(t, res, slow, world, fmt.Sprintf("WORLD_SIZE = %d in %d traces", world, world-1))
}

// TestCompleteJobMissesNoRank: every rank's trace read, nothing is missing,
// and the declared size is the generator's world.
func TestCompleteJobMissesNoRank(t *testing.T) {
	job := sampletest.Job(t, "default")
	res := analyzeKineto(t, job)
	if len(res.MissingRanks) != 0 || res.DeclaredWorldSize != job.Config.World() {
		t.Fatalf("missing %v, declared %d; want none of %d", res.MissingRanks, res.DeclaredWorldSize, job.Config.World())
	}
	if f := findKind(res, vocab.KindMissingRanks); f != nil {
		t.Fatal("a complete job has a missing_ranks finding")
	}
}

// checkMissing asserts that res names rank missing out of world, first
// among its findings, with the evidence line want.
func checkMissing(t *testing.T, res *result.Result, rank, world int, want string) {
	t.Helper()
	if !slices.Equal(res.MissingRanks, []int{rank}) || res.DeclaredWorldSize != world || res.WorldSize != world-1 {
		t.Fatalf("missing %v, declared %d, world %d; want [%d] of %d, %d read", res.MissingRanks, res.DeclaredWorldSize, res.WorldSize, rank, world, world-1)
	}
	if len(res.Findings) == 0 || res.Findings[0].Kind != vocab.KindMissingRanks {
		t.Fatalf("first finding is not missing_ranks: %+v", res.Findings)
	}
	f := res.Findings[0]
	if f.Severity != "high" || !slices.Equal(f.Ranks, []int{rank}) || !strings.Contains(prose.Headline(res, f), fmt.Sprintf("rank %d", rank)) {
		t.Errorf("finding %+v: want high, naming rank %d", f, rank)
	}
	if !slices.Contains(prose.Evidence(res, f), want) {
		t.Errorf("evidence %q lacks %q", prose.Evidence(res, f), want)
	}
}
