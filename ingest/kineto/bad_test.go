package kineto

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// readBad reads a good rank-0 file with one bad file and returns the trace
// and the skip record of the bad file.
func readBad(t *testing.T, name string, content []byte) (*model.Trace, model.Skip) {
	t.Helper()
	dir := t.TempDir()
	good := writeTrace(t, dir, "rank0.json", `{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "ok", "pid": 1, "tid": 1, "ts": 1, "dur": 1}]}`)
	bad := filepath.Join(dir, name)
	if err := os.WriteFile(bad, content, 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := Read(context.Background(), []string{good, bad}, source.Options{})
	if err != nil {
		t.Fatalf("a bad file among good ones failed the read: %v", err)
	}
	if tr.Events.Len() != 1 || len(tr.Ranks) != 1 {
		t.Fatalf("good file not kept: %d events", tr.Events.Len())
	}
	for _, s := range tr.Skipped {
		if s.Source == bad {
			return tr, s
		}
	}
	t.Fatalf("bad file not recorded: %+v", tr.Skipped)
	return nil, model.Skip{}
}

func gzipped(t *testing.T, s string) []byte {
	p := writeTrace(t, t.TempDir(), "x.gz", s)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBadFiles(t *testing.T) {
	full := gzipped(t, miniTrace)
	cases := []struct {
		name, file string
		content    []byte
		want       string // in the skip reason
		offset     int64  // -1: any
	}{
		{"truncated gzip", "rank1.json.gz", full[:len(full)/2], "gzip data truncated", -1},
		{"truncated json", "rank1.json", []byte(miniTrace[:1500]), "unexpected end of input inside a string", 1500},
		{"no traceEvents", "rank1.json", []byte(`{"schemaVersion": 1}`), "no \"traceEvents\"", -1},
		{"not json", "rank1.json", []byte("hello world"), "unexpected 'h'", 0},
		{"bad nesting", "rank1.json", []byte(`{"traceEvents": [{"a": [1}]}`), "unexpected '}'", 25},
		{"empty", "rank1.json", nil, "end of input", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, s := readBad(t, c.file, c.content)
			if !strings.Contains(s.Reason, c.want) || !strings.Contains(s.Reason, c.file) {
				t.Errorf("reason %q, want it to name %q and %q", s.Reason, c.file, c.want)
			}
			if c.offset >= 0 && (s.Offset != c.offset || s.Unit != "byte") {
				t.Errorf("offset %d %s, want byte %d", s.Offset, s.Unit, c.offset)
			}
		})
	}
}

func TestAllFilesBad(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "rank0.json", "not json")
	_, err := Read(context.Background(), []string{p}, source.Options{})
	var fe *source.FileError
	if !errors.As(err, &fe) || fe.Path != p || fe.Offset != 0 {
		t.Fatalf("want a FileError naming %s at byte 0, got %v", p, err)
	}
}

func TestDuplicateRanks(t *testing.T) {
	dir := t.TempDir()
	doc := `{"distributedInfo": {"rank": 3}, "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}]}`
	a, b := writeTrace(t, dir, "a.json", doc), writeTrace(t, dir, "b.json", doc)
	_, err := Read(context.Background(), []string{a, b}, source.Options{})
	var dup *model.DuplicateRankError
	if !errors.As(err, &dup) || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), b) {
		t.Fatalf("want a duplicate-rank error naming both files, got %v", err)
	}
}

func TestBadDurations(t *testing.T) {
	doc := `{"traceEvents": [
	{"ph": "X", "cat": "cpu_op", "name": "ok", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
	{"ph": "X", "cat": "cpu_op", "name": "neg", "pid": 1, "tid": 1, "ts": 1, "dur": -5},
	{"ph": "X", "cat": "kernel", "name": "huge", "pid": 0, "tid": 7, "ts": 1, "dur": 86400000001, "args": {"stream": 7}},
	{"ph": "X", "cat": "kernel", "name": "huge2", "pid": 0, "tid": 7, "ts": 1, "dur": 1e12, "args": {"stream": 7}},
	{"ph": "X", "cat": "cpu_op", "name": "nots", "pid": 1, "tid": 1, "dur": 1},
	{"ph": "X", "cat": "cpu_op", "name": "text", "pid": 1, "tid": 1, "ts": "soon", "dur": 1},
	{"ph": "X", "cat": "cpu_op", "name": 5}
	]}`
	tr := readOne(t, writeTrace(t, t.TempDir(), "rank0.json", doc))
	if tr.Events.Len() != 1 {
		t.Fatalf("kept %d events, want 1", tr.Events.Len())
	}
	want := map[string]int64{"negative duration": 1, "duration over a day": 2, "without ts": 1, "unparsable ts": 1, "undecodable event": 1}
	for _, s := range tr.Skipped {
		for k, n := range want {
			if strings.Contains(s.Reason, k) {
				if s.Count != n || s.Offset <= 0 || s.Unit != "byte" {
					t.Errorf("%q: count %d offset %d %s", s.Reason, s.Count, s.Offset, s.Unit)
				}
				delete(want, k)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("not recorded: %v (have %+v)", want, tr.Skipped)
	}
}

func TestRankFromNameAndMap(t *testing.T) {
	dir := t.TempDir()
	doc := `{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}]}`
	named := map[string]int32{"sampled_rank-4.json": 4, "worker5_step_12.pt.trace.json": 5, "x_rank_6.json": 6, "rank7.json.gz": 7}
	var paths []string
	for n := range named {
		paths = append(paths, writeTrace(t, dir, n, doc))
	}
	mapped := writeTrace(t, dir, "trace-a.json", doc)
	unknown := writeTrace(t, dir, "trace-b.json", doc)
	opts := source.Options{RankMap: map[string]int32{"trace-a.json": 9}}
	tr, err := Read(context.Background(), append(paths, mapped, unknown), opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []int32
	for _, r := range tr.Ranks {
		got = append(got, r.Rank)
	}
	if len(got) != 5 || got[0] != 4 || got[3] != 7 || got[4] != 9 {
		t.Errorf("ranks %v, want [4 5 6 7 9]", got)
	}
	found := false
	for _, s := range tr.Skipped {
		found = found || s.Source == unknown && strings.Contains(s.Reason, "--rank-map")
	}
	if !found {
		t.Errorf("file without a rank not recorded: %+v", tr.Skipped)
	}
}
