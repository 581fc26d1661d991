package analysis

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestTwoRankSetNamesNoSlowRank: the 2-rank HTA set has one peer per rank
// and no collective both ranks were matched in, so neither a slow rank nor
// a pair note may come out of it.
func TestTwoRankSetNamesNoSlowRank(t *testing.T) {
	dir := sharedDir(t, "traces", "kineto", "hta_trace_filter_2rank")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json.gz"))
	tr, err := kineto.Read(context.Background(), files, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Analyze(context.Background(), tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Ranks) != 2 || len(res.SlowRanks) != 0 {
		t.Fatalf("%d ranks, slow ranks %+v; want 2 ranks and none slow", len(res.Ranks), res.SlowRanks)
	}
	for _, f := range res.Findings {
		if f.Kind == result.KindSlowRank || f.Kind == result.KindRankPair {
			t.Errorf("finding %+v from a rank with one peer and no blame", f)
		}
	}
}
