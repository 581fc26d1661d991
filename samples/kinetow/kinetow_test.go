package kinetow

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/samples"
)

type chromeTrace struct {
	SchemaVersion   int   `json:"schemaVersion"`
	BaseTime        int64 `json:"baseTimeNanoseconds"`
	DistributedInfo struct {
		Rank      int `json:"rank"`
		WorldSize int `json:"world_size"`
		PGConfig  []struct {
			Name  string  `json:"pg_name"`
			Desc  string  `json:"pg_desc"`
			Ranks []int32 `json:"ranks"`
		} `json:"pg_config"`
	} `json:"distributedInfo"`
	TraceEvents []map[string]any `json:"traceEvents"`
}

func readTrace(t *testing.T, path string) chromeTrace {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var ct chromeTrace
	if err := json.NewDecoder(zr).Decode(&ct); err != nil {
		t.Fatalf("%s is not valid JSON: %v", path, err)
	}
	return ct
}

func TestWrittenTracesParse(t *testing.T) {
	c, job := simulate(t, "slow-rank")
	dir := writeTemp(t, job)
	for _, r := range job.Trace.Ranks {
		ct := readTrace(t, filepath.Join(dir, FileName(int(r.Rank))))
		if ct.SchemaVersion != 1 || ct.BaseTime != samples.BaseTimeNs || ct.DistributedInfo.Rank != int(r.Rank) || ct.DistributedInfo.WorldSize != c.World() {
			t.Fatalf("rank %d header: schema %d base %d rank %d world %d", r.Rank, ct.SchemaVersion, ct.BaseTime, ct.DistributedInfo.Rank, ct.DistributedInfo.WorldSize)
		}
		lo, hi := job.Trace.Events.RankRange(r.Rank)
		if x := countX(ct); x != hi-lo {
			t.Fatalf("rank %d: %d X events written, model has %d", r.Rank, x, hi-lo)
		}
	}
}

func countX(ct chromeTrace) int {
	n := 0
	for _, e := range ct.TraceEvents {
		if e["ph"] == "X" && e["cat"] != "Trace" {
			n++
		}
	}
	return n
}

func BenchmarkWriteBig64(b *testing.B) {
	_, job := simulate(b, "big-64")
	dir := b.TempDir()
	for b.Loop() {
		if err := WriteDir(dir, job); err != nil {
			b.Fatal(err)
		}
	}
}

// simulate runs the named scenario. (samples/sampletest, which does the
// same, imports this package, so its tests cannot use it.)
func simulate(tb testing.TB, name string) (samples.Config, *samples.Job) {
	tb.Helper()
	c, err := samples.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	job, err := samples.Simulate(c)
	if err != nil {
		tb.Fatal(err)
	}
	return c, job
}

// writeTemp writes job into a new temporary folder and returns it.
func writeTemp(tb testing.TB, job *samples.Job) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := WriteDir(dir, job); err != nil {
		tb.Fatal(err)
	}
	return dir
}
