package nsys

import (
	"context"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples/shared"
)

// TestShardNeedsRanksFromEachReport: a shard cannot give a process the
// lowest free rank (that needs every report), so a report naming no rank
// fails the shard, saying what would name it; the --rank-map does.
func TestShardNeedsRanksFromEachReport(t *testing.T) {
	path := shared.Dir(t, "traces", "nsys", "NVIDIA-Fuser_report1.sqlite")
	_, err := ReadShard(context.Background(), []string{path}, 0, 1, source.Options{})
	if err == nil || !strings.Contains(err.Error(), "names no rank") || !strings.Contains(err.Error(), "--rank-map") {
		t.Fatalf("err = %v, want a refusal naming --rank-map", err)
	}
	sh, err := ReadShard(context.Background(), []string{path}, 0, 1, source.Options{RankMap: map[string]int32{"NVIDIA-Fuser_report1.sqlite": 6}})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Join([]*Shard{sh})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Read(context.Background(), []string{path}, source.Options{RankMap: map[string]int32{"NVIDIA-Fuser_report1.sqlite": 6}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Ranks) != 1 || tr.Ranks[0].Rank != 6 || tr.Events.Len() != want.Events.Len() || tr.Ranks[0].ClockBase != want.Ranks[0].ClockBase {
		t.Fatalf("joined %d events, ranks %+v; want %d events, ranks %+v", tr.Events.Len(), tr.Ranks, want.Events.Len(), want.Ranks)
	}
}
