package whatif_test

import (
	"cmp"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/whatif"
	"github.com/tpptrace/tpptrace/ingest/optable"
	"github.com/tpptrace/tpptrace/samples/shared"
)

// published holds the figures of the ST job's published what-if analysis.
type published struct {
	Base    map[string]float64 `json:"step_t_base"`
	NoDelay map[string]float64 `json:"step_t_nodelay"`
	Launch  float64            `json:"launch_slowdown"`
	S       float64            `json:"blocking_slowdown"`
	ByDP    map[string]float64 `json:"blocking_decompose_by_dp_rank"`
	ByStage map[string]float64 `json:"blocking_decompose_by_stage"`
	ByType  map[string]float64 `json:"blocking_decompose_by_optype"`
}

type fixFile struct {
	TRem   float64 `json:"trem"`
	TAdd   float64 `json:"tadd"`
	TOri   float64 `json:"tori"`
	TIdeal float64 `json:"tideal"`
	Rem    float64 `json:"rem"`
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func near(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if math.Abs(got-want) > rel*math.Abs(want) {
		t.Errorf("%s = %.9g, published %.9g (rel %.2g)", what, got, want, math.Abs(got-want)/math.Abs(want))
	}
}

func analyzeST(t *testing.T) (*whatif.Report, string) {
	dir := shared.Dir(t, "traces", "bytedance_ST")
	tab, err := optable.ReadFile(filepath.Join(dir, "trace-ST.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := whatif.FromOpTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	return whatif.Analyze(g), dir
}

func TestPublishedST(t *testing.T) {
	r, dir := analyzeST(t)
	var p published
	var mw, ms fixFile
	readJSON(t, filepath.Join(dir, "result-ST.json"), &p)
	readJSON(t, filepath.Join(dir, "mw-ST.json"), &mw)
	readJSON(t, filepath.Join(dir, "ms-ST.json"), &ms)
	const tol = 1e-6
	if r.CheckAbs >= 1e-6 {
		t.Errorf("self-check error %.3g s, want < 1 µs", r.CheckAbs)
	}
	t.Logf("self-check %.3g s (%.2g rel); T_trace %.7f T_ori %.7f T_ideal %.7f", r.CheckAbs, r.CheckRel, r.TTrace, r.TOri, r.TIdeal)
	for i, s := range r.Steps {
		k := strconv.FormatInt(s, 10)
		near(t, "T_trace step "+k, r.StepTrace[i], p.Base[k], tol)
		near(t, "T_ori step "+k, r.StepOri[i], p.NoDelay[k], tol)
	}
	near(t, "T_ori", r.TOri, mw.TOri, tol)
	near(t, "T_ideal", r.TIdeal, mw.TIdeal, tol)
	near(t, "S", r.S, p.S, tol)
	near(t, "launch slowdown", r.LaunchSlowdown, p.Launch, tol)
	for _, sh := range r.ByDP {
		near(t, "S dp "+strconv.Itoa(int(sh.ID)), sh.S, p.ByDP[strconv.Itoa(int(sh.ID))], tol)
	}
	for _, sh := range r.ByStage {
		near(t, "S stage "+strconv.Itoa(int(sh.ID)), sh.S, p.ByStage[strconv.Itoa(int(sh.ID))], tol)
	}
	for _, sh := range r.ByType {
		near(t, "S "+sh.Key, sh.S, p.ByType[sh.Key], tol)
	}
	// S per rank: the published job's straggler, rank 7, explains most.
	if len(r.ByRank) != 8 || slices.MaxFunc(r.ByRank, func(a, b whatif.Share) int { return cmp.Compare(a.S, b.S) }).ID != 7 {
		t.Errorf("S by rank %+v: want 8 ranks, rank 7 highest", r.ByRank)
	}
	if len(r.TopWorkers) != 1 || r.TopWorkers[0] != (whatif.Worker{Rank: 7, DP: 1, Stage: 3}) {
		t.Errorf("top workers %+v, published rank 7 (dp 1, stage 3)", r.TopWorkers)
	}
	near(t, "M_W T_rem", r.MW.TRem, mw.TRem, tol)
	near(t, "M_W T_add", r.MW.TAdd, mw.TAdd, tol)
	near(t, "M_W", r.MW.M, mw.Rem, tol)
	near(t, "M_S T_rem", r.MS.TRem, ms.TRem, tol)
	near(t, "M_S T_add", r.MS.TAdd, ms.TAdd, tol)
	near(t, "M_S", r.MS.M, ms.Rem, tol)
}

// TestCriticalPathST: on ST, each step's critical path (no launch delays)
// adds up to the replayed step, and the last stage's compute dominates it
// (the published diagnosis: the last stage is the straggler).
func TestCriticalPathST(t *testing.T) {
	dir := shared.Dir(t, "traces", "bytedance_ST")
	tab, err := optable.ReadFile(filepath.Join(dir, "trace-ST.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := whatif.FromOpTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	steps, _ := g.StepTime(g.NoDelay())
	paths := g.CriticalPaths(g.NoDelay())
	for i, p := range paths {
		sum := 0.0
		for _, v := range p.ByCategory {
			sum += v
		}
		near(t, "critical path of step "+strconv.FormatInt(p.Step, 10), sum, steps[i], 1e-9)
	}
	mean := whatif.MeanPath(paths)
	if top := whatif.SortedCategories(mean)[0]; top != "compute stage 3" {
		t.Errorf("largest category %q (%v), want compute stage 3", top, mean)
	}
}
