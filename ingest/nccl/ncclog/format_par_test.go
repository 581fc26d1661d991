package ncclog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// manyLogs writes n hosts' logs of 4 processes each, in one 4n-rank
// communicator and one split of it a host; every fifth log names an NCCL
// version outside the known ones (a warning and a skip record).
func manyLogs(t *testing.T, n int) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for k := range n {
		version := "2.21.5+cuda12.4"
		if k%5 == 2 {
			version = fmt.Sprintf("2.%d.1", 10+k%3)
		}
		lines := []string{fmt.Sprintf("h%d:%d:1 [0] NCCL INFO NCCL version %s", k, 100*k, version)}
		for l := range 4 {
			r, pid := 4*k+l, 100*k+l
			lines = append(lines,
				fmt.Sprintf("h%d:%d:1 [%d] NCCL INFO ncclCommInitRank comm 0x%d0 rank %d nranks %d cudaDev %d busId %d000 commId 0xabc - Init COMPLETE", k, pid, l, r, r, 4*n, l, l+1),
				fmt.Sprintf("h%d:%d:1 [%d] NCCL INFO ncclCommSplit comm 0x%d1 rank %d nranks 4 cudaDev %d nvmlDev %d busId %d000 parent 0x%d0 splitCount 1 color %d key %d - Init COMPLETE", k, pid, l, r, l, l, l, l+1, r, k, l))
		}
		p := filepath.Join(dir, fmt.Sprintf("nccl.h%02d.log", k))
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// logsOneByOne is the trace and warnings of the loop that read the logs
// one after another.
func logsOneByOne(t *testing.T, paths []string) (*model.Trace, []string) {
	t.Helper()
	var w source.Warnings
	var logs []*Log
	for _, p := range paths {
		l, err := readLog(p, 0)
		if err != nil {
			t.Fatal(err)
		}
		warnUnknown(l, source.Options{Warn: w.Add})
		logs = append(logs, l)
	}
	tr := LogTrace(logs)
	for _, l := range logs {
		for _, v := range l.Unknown {
			tr.Skip(l.Path, -1, "", "NCCL version %s is outside 2.%d–2.%d: read with the rules of those versions", v, MinVersion, MaxVersion)
		}
	}
	return tr, w.Msgs()
}

// TestLogsInOrder: logs read on several goroutines give the trace, the
// warnings (in order) and the skip records of the loop one after another,
// and the error of the first bad log in path order.
func TestLogsInOrder(t *testing.T) {
	paths := manyLogs(t, 20)
	want, warns := logsOneByOne(t, paths)
	if len(warns) != 4 || len(want.Skipped) != 4 || len(want.Ranks) != 80 {
		t.Fatalf("fixture: %d warnings, %d skips, %d ranks; want 4, 4, 80", len(warns), len(want.Skipped), len(want.Ranks))
	}
	for _, workers := range []int{1, 3, 8} {
		var w source.Warnings
		got, err := Format.Read(context.Background(), paths, source.Options{Workers: workers, Warn: w.Add})
		if err != nil || !reflect.DeepEqual(got, want) || !slices.Equal(w.Msgs(), warns) {
			t.Fatalf("workers %d: err %v, warnings %q; trace or warnings differ from one by one's (%q)", workers, err, w.Msgs(), warns)
		}
	}
	bad := slices.Concat(paths[:7], []string{filepath.Join(t.TempDir(), "gone-1.log")}, paths[7:], []string{"gone-2.log"})
	for _, workers := range []int{1, 8} {
		var w source.Warnings
		_, err := Format.Read(context.Background(), bad, source.Options{Workers: workers, Warn: w.Add})
		if err == nil || !strings.Contains(err.Error(), "gone-1.log") || len(w.Msgs()) != 1 {
			t.Errorf("workers %d: err %v, warnings %q; want the missing gone-1.log's after one warning", workers, err, w.Msgs())
		}
	}
}
