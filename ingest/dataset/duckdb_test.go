package dataset

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// duckScript runs each SQL argument in DuckDB and prints the results as one
// JSON array of row arrays.
const duckScript = `const { DuckDBInstance } = require('@duckdb/node-api');
(async () => {
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  const out = [];
  for (const sql of process.argv.slice(2)) out.push((await con.runAndReadAll(sql)).getRowObjectsJson());
  console.log(JSON.stringify(out));
})().catch(e => { console.error(String(e)); process.exit(1); });
`

// duckQuery runs queries with DuckDB's Node package in dir. It skips the
// test unless node is installed and TPPTRACE_DUCKDB_NODE_MODULES names a
// node_modules directory holding @duckdb/node-api (docs/dataset.md).
func duckQuery(t *testing.T, dir string, queries ...string) [][]map[string]string {
	t.Helper()
	mods := os.Getenv("TPPTRACE_DUCKDB_NODE_MODULES")
	node, err := exec.LookPath("node")
	if mods == "" || err != nil {
		t.Skip("DuckDB check skipped: needs node and TPPTRACE_DUCKDB_NODE_MODULES (npm install @duckdb/node-api in a temp dir)")
	}
	if _, err := os.Stat(filepath.Join(mods, "@duckdb", "node-api")); err != nil {
		t.Skipf("DuckDB check skipped: %v", err)
	}
	script := filepath.Join(t.TempDir(), "q.cjs")
	if err := os.WriteFile(script, []byte(duckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, append([]string{script}, queries...)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "NODE_PATH="+mods)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s", err, out)
	}
	var res [][]map[string]string
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("duckdb output: %v\n%s", err, out)
	}
	return res
}

// TestDuckDBReadsDataset reads a dataset with DuckDB (an independent
// Parquet engine) and compares its answers with the trace written.
func TestDuckDBReadsDataset(t *testing.T) {
	dir, tr := writeFixture(t, 3)
	res := duckQuery(t, dir,
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
	expect(t, res[0][0], map[string]string{"n": strconv.Itoa(tr.Events.Len()), "dur": fmt.Sprint(dur), "names": strconv.Itoa(len(names))})
	if len(res[1]) != len(comm) {
		t.Fatalf("comm names: duckdb %v, want %v", res[1], comm)
	}
	for _, row := range res[1] {
		expect(t, row, map[string]string{"dur": fmt.Sprint(comm[row["name"]])})
	}
	for i, c := range tr.Comms {
		expect(t, res[2][i], map[string]string{"id": c.ID, "members": duckList(c.Members), "axis": c.Axis.String()})
	}
	expect(t, res[3][0], map[string]string{"value": strconv.Itoa(SchemaVersion)})
	expect(t, res[4][0], map[string]string{"r": fmt.Sprint(tr.Samples.At(0).ClockReasons)})
}

func expect(t *testing.T, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("duckdb %s = %q, want %q (row %v)", k, got[k], v, got)
		}
	}
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
