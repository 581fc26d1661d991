package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/dataset"
)

func kinetoDoc(rankInfo string) string {
	return `{` + rankInfo + `"traceEvents": [
	{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 10, "dur": 100},
	{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"correlation": 5}},
	{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "pid": 0, "tid": 7, "ts": 30, "dur": 10,
	 "args": {"stream": 7, "correlation": 5, "Collective name": "allreduce", "In msg nelems": 8, "dtype": "Float",
	          "Process Group Name": "2", "Process Group Description": "TENSOR_MODEL_PARALLEL_GROUP", "Process Group Ranks": "[0, 1]"}}]}`
}

func runIngestCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code := Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

func writeIngestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestIngestWritesDatasetAndSummary(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	writeIngestFile(t, filepath.Join(in, "a.json"), kinetoDoc(`"distributedInfo": {"rank": 0},`))
	writeIngestFile(t, filepath.Join(in, "rank1.json"), kinetoDoc(""))
	writeIngestFile(t, filepath.Join(in, "rank2.json"), `{"traceEvents": [{"ph": `)
	ds := filepath.Join(dir, "ds")
	code, out, errs := runIngestCLI(t, "ingest", in, "-o", ds)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"ranks: 2", "comm            2", "iterations: 1 (3..3)", "all_reduce 2",
		"TENSOR_MODEL_PARALLEL_GROUP", "axis TP (by description)", "members 0,1", "rank2.json (byte 24)"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if !dataset.IsDataset(ds) {
		t.Fatal("no dataset written")
	}
	back, _, err := dataset.Read(ds)
	if err != nil || back.Events.Len() != 6 {
		t.Fatalf("dataset read back: %v", err)
	}
}

func TestIngestJSONAndRankMap(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "first.json"), filepath.Join(dir, "second.json")
	writeIngestFile(t, a, kinetoDoc(""))
	writeIngestFile(t, b, kinetoDoc(""))
	rm := filepath.Join(dir, "ranks.txt")
	writeIngestFile(t, rm, "# file rank\nfirst.json 4\n"+b+" 5\n")
	code, out, errs := runIngestCLI(t, "ingest", "--json", "--rank-map", rm, a, b)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var s ingest.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(s.Ranks) != 2 || s.Ranks[0].Rank != 4 || s.Ranks[1].Rank != 5 || s.ByKind["comm"] != 2 {
		t.Errorf("summary %+v", s)
	}
}

func TestIngestErrors(t *testing.T) {
	if code, _, _ := runIngestCLI(t, "ingest"); code != ExitUsage {
		t.Errorf("no inputs: exit %d, want %d", code, ExitUsage)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "x.json")
	writeIngestFile(t, bad, "nope")
	code, _, errs := runIngestCLI(t, "ingest", bad)
	if code != ExitError || !strings.Contains(errs, bad) {
		t.Errorf("unreadable input: exit %d, stderr %q", code, errs)
	}
	rm := filepath.Join(dir, "ranks.txt")
	writeIngestFile(t, rm, "a.json\n")
	if code, _, errs := runIngestCLI(t, "ingest", "--rank-map", rm, bad); code != ExitError || !strings.Contains(errs, "line 1") {
		t.Errorf("bad rank map: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runIngestCLI(t, "ingest", "--step-regex", "(", bad); code != ExitUsage {
		t.Errorf("bad regexp: exit %d", code)
	}
}

func TestIngestHelp(t *testing.T) {
	code, out, _ := runIngestCLI(t, "help", "ingest")
	if code != ExitOK || !strings.Contains(out, "--rank-map") && !strings.Contains(out, "-rank-map") || !strings.Contains(out, "Examples:") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}
