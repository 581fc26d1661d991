package hang

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
)

func sampleHang() *result.Hang {
	f := result.HangFinding{Group: "7", Desc: "TP\x1b[31m", Kind: result.HangMissing, Seq: 3, Op: "nccl:all_reduce",
		Size: "4x5", DType: "Float", Ranks: []int32{1}, Present: []int32{0, 2}}
	return &result.Hang{Ranks: []int32{0, 1, 2}, Findings: []result.HangFinding{f}, Culprit: &f, Culprits: []result.HangFinding{f},
		NoDump: []result.HangNoDump{{Rank: 3, Path: "d/rank_3", Reason: "an empty file"}}}
}

// TestWriteTextRowsNoDumpAndAll: the culprit row, then the rank without a
// dump; --all adds a blank line and the findings table; no terminal escape
// from a dump reaches the output, and the report itself is left as it was.
func TestWriteTextRowsNoDumpAndAll(t *testing.T) {
	rep := sampleHang()
	var b bytes.Buffer
	if err := WriteText(&b, rep, true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "PGID ") || !strings.HasPrefix(lines[1], "7 ") || !strings.HasSuffix(lines[1], "| 1") {
		t.Fatalf("attribution rows:\n%s", b.String())
	}
	if lines[2] != "rank 3: no usable dump (d/rank_3: an empty file) — it may be the culprit" || lines[3] != "" || !strings.HasPrefix(lines[4], "PG ") {
		t.Fatalf("no-dump line and findings:\n%s", b.String())
	}
	if strings.Contains(b.String(), "\x1b") || rep.Culprit.Desc != "TP\x1b[31m" {
		t.Fatalf("escape in the output, or the report changed: %q", b.String())
	}
	b.Reset()
	if err := WriteText(&b, rep, false); err != nil || strings.Count(b.String(), "\n") != 3 {
		t.Fatalf("without --all: %v\n%s", err, b.String())
	}
}

func TestWriteJSONRoundTrips(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sampleHang()); err != nil {
		t.Fatal(err)
	}
	var back result.Hang
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.Culprit == nil || back.Culprit.Group != "7" || len(back.NoDump) != 1 || !strings.Contains(b.String(), `"no_usable_dump"`) {
		t.Fatalf("err %v, back %+v\n%s", err, back, b.String())
	}
}
