package ingest_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples/duckdbtest"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestDuckDBReadsShardedDataset reads a sharded dataset as one
// hive-partitioned Parquet dataset with DuckDB: every rank's events are
// found under the shard that ingested them, as many as that shard's trace
// holds, and the shard column comes from the directory names (as text:
// DuckDB keeps "00002" a string, so the query casts it).
func TestDuckDBReadsShardedDataset(t *testing.T) {
	duckdbtest.Need(t)
	dir := sampletest.KinetoDir(t, sampletest.Job(t, "default"))
	root := filepath.Join(t.TempDir(), "ds")
	want := map[string]string{} // "shard/rank" -> events
	for k := range 3 {
		tr, err := ingest.IngestShard(context.Background(), []string{dir}, source.Options{}, k, 3, root, dataset.Manifest{Tool: "test"})
		if err != nil {
			t.Fatal(err)
		}
		for _, rk := range tr.Ranks {
			lo, hi := tr.Events.RankRange(rk.Rank)
			want[fmt.Sprintf("%d/%d", k, rk.Rank)] = fmt.Sprint(hi - lo)
		}
	}
	res := duckdbtest.Query(t, root,
		`SELECT shard::INTEGER::VARCHAR AS shard, rank::VARCHAR AS rank, count(*)::VARCHAR AS n
		 FROM read_parquet('shard=*/events/*.parquet', hive_partitioning = true) GROUP BY ALL ORDER BY ALL`)
	if len(res[0]) != len(want) {
		t.Fatalf("duckdb sees %d (shard, rank) pairs, the shards wrote %d: %v", len(res[0]), len(want), res[0])
	}
	for _, row := range res[0] {
		key := row["shard"] + "/" + row["rank"]
		if want[key] == "" {
			t.Errorf("duckdb sees rank %s under shard %s, which did not write it", row["rank"], row["shard"])
		}
		duckdbtest.Expect(t, row, map[string]string{"n": want[key]})
	}
}
