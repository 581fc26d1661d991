// Package duckdbtest runs SQL in DuckDB, an independent Parquet engine, for
// the tests that check the datasets tpptrace writes stay readable by other
// tools. It needs node and DuckDB's Node package; without them the test
// skips, saying how to enable it (docs/dataset.md).
package duckdbtest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Env names the node_modules directory holding @duckdb/node-api.
const Env = "TPPTRACE_DUCKDB_NODE_MODULES"

// script runs each SQL argument and prints the results as one JSON array
// of row arrays.
const script = `const { DuckDBInstance } = require('@duckdb/node-api');
(async () => {
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  const out = [];
  for (const sql of process.argv.slice(2)) out.push((await con.runAndReadAll(sql)).getRowObjectsJson());
  console.log(JSON.stringify(out));
})().catch(e => { console.error(String(e)); process.exit(1); });
`

// Query runs queries with DuckDB in dir and returns one slice of rows per
// query, every value as DuckDB's JSON text of it. It skips the test unless
// node is installed and Env names a node_modules directory holding
// @duckdb/node-api.
func Query(t *testing.T, dir string, queries ...string) [][]map[string]string {
	t.Helper()
	node := Need(t)
	file := filepath.Join(t.TempDir(), "q.cjs")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, append([]string{file}, queries...)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "NODE_PATH="+os.Getenv(Env))
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

// Need returns node's path, or skips the test when DuckDB is not at hand:
// call it first in a test that takes long to prepare its dataset.
func Need(t *testing.T) string {
	t.Helper()
	mods := os.Getenv(Env)
	node, err := exec.LookPath("node")
	if mods == "" || err != nil {
		t.Skip("DuckDB check skipped: needs node and " + Env + " (npm install @duckdb/node-api in a temp dir)")
	}
	if _, err := os.Stat(filepath.Join(mods, "@duckdb", "node-api")); err != nil {
		t.Skipf("DuckDB check skipped: %v", err)
	}
	return node
}

// Expect fails the test for every key of want whose value in got differs.
func Expect(t *testing.T, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("duckdb %s = %q, want %q (row %v)", k, got[k], v, got)
		}
	}
}
