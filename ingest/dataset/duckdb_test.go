package dataset

import (
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tpptrace/tpptrace/samples/duckdbtest"
)

// TestDuckDBReadsDataset reads a dataset with DuckDB (an independent
// Parquet engine) and compares its answers with the trace written.
func TestDuckDBReadsDataset(t *testing.T) {
	dir, tr := writeFixture(t, 3)
	res := duckdbtest.Query(t, dir,
		`SELECT count(*)::VARCHAR AS n, sum(dur_ns)::VARCHAR AS dur, count(DISTINCT name)::VARCHAR AS names FROM 'events/*.parquet'`,
		`SELECT name, sum(dur_ns)::VARCHAR AS dur FROM 'events/*.parquet' WHERE kind = 'comm' GROUP BY 1`,
		`SELECT id, members::VARCHAR AS members, axis FROM 'comms.parquet' ORDER BY comm`,
		`SELECT value FROM parquet_kv_metadata('events/rank=00002.parquet') WHERE key = 'tpptrace.schema_version'`,
		`SELECT max(clock_event_reasons)::VARCHAR AS r FROM 'samples.parquet'`)
	var dur int64
	names, comm := map[string]bool{}, map[string]int64{}
	for i := range tr.Events.Len() {
		dur += tr.Events.Dur[i]
		names[tr.Name(i)] = true
		if tr.Events.Kind[i].String() == "comm" {
			comm[tr.Name(i)] += tr.Events.Dur[i]
		}
	}
	duckdbtest.Expect(t, res[0][0], map[string]string{"n": strconv.Itoa(tr.Events.Len()), "dur": fmt.Sprint(dur), "names": strconv.Itoa(len(names))})
	if len(res[1]) != len(comm) {
		t.Fatalf("comm names: duckdb %v, want %v", res[1], comm)
	}
	for _, row := range res[1] {
		duckdbtest.Expect(t, row, map[string]string{"dur": fmt.Sprint(comm[row["name"]])})
	}
	for i, c := range tr.Comms {
		duckdbtest.Expect(t, res[2][i], map[string]string{"id": c.ID, "members": duckList(c.Members), "axis": c.Axis.String()})
	}
	duckdbtest.Expect(t, res[3][0], map[string]string{"value": strconv.Itoa(SchemaVersion)})
	duckdbtest.Expect(t, res[4][0], map[string]string{"r": fmt.Sprint(tr.Samples.At(0).ClockReasons)})
}

func duckList(m []int32) string {
	s := "["
	for i, x := range m {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(x)
	}
	return s + "]"
}

// TestDuckDBReadsCacheEntry reads the events files of a cache entry
// (Manifest.Fast, written column by column) with DuckDB: the same schema
// and the same rows as the ordinary dataset's, every column compared.
func TestDuckDBReadsCacheEntry(t *testing.T) {
	duckdbtest.Need(t)
	tr := buildTrace(t, 3)
	addBigRank(tr, 9, rowGroupRows+300)
	root := t.TempDir()
	for _, m := range []Manifest{{}, {Fast: true}} {
		if err := Write(filepath.Join(root, map[bool]string{false: "ds", true: "entry"}[m.Fast]), tr, m); err != nil {
			t.Fatal(err)
		}
	}
	schema := `SELECT string_agg(column_name || ' ' || column_type, ', ') AS s FROM (DESCRIBE SELECT * FROM '%s/events/*.parquet')`
	res := duckdbtest.Query(t, root,
		fmt.Sprintf(schema, "ds"), fmt.Sprintf(schema, "entry"),
		`SELECT count(*)::VARCHAR AS n FROM 'entry/events/*.parquet'`,
		`SELECT count(*)::VARCHAR AS n FROM (SELECT * FROM 'ds/events/*.parquet' EXCEPT ALL SELECT * FROM 'entry/events/*.parquet')`,
		`SELECT count(*)::VARCHAR AS n FROM (SELECT * FROM 'entry/events/*.parquet' EXCEPT ALL SELECT * FROM 'ds/events/*.parquet')`)
	duckdbtest.Expect(t, res[1][0], map[string]string{"s": res[0][0]["s"]})
	duckdbtest.Expect(t, res[2][0], map[string]string{"n": strconv.Itoa(tr.Events.Len())})
	duckdbtest.Expect(t, res[3][0], map[string]string{"n": "0"})
	duckdbtest.Expect(t, res[4][0], map[string]string{"n": "0"})
}
