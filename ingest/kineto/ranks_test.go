package kineto

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// readParts reads docs as the files of one read and returns their parts.
func readParts(t *testing.T, docs ...string) []fileResult {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, d := range docs {
		paths = append(paths, writeTrace(t, dir, fmt.Sprintf("f%d.json", i), d))
	}
	results := readAll(context.Background(), paths, source.Options{}, false)
	for _, r := range results {
		if r.err != nil {
			t.Fatal(r.err)
		}
	}
	return results
}

func sameArray(a, b []int32) bool {
	return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0]
}

// Files that state the same rank list (in any order or spelling) share one
// array for it: their stated lists and their communicators' members.
func TestRankListsSharedAcrossFiles(t *testing.T) {
	parts := readParts(t, pgDoc(0, "0", "[0, 1, 2, 3]"), pgDoc(1, "0", "[3,2,1,0]"), pgDoc(2, "0", "0, 1, 2, 3"))
	first := parts[0].tr.Comms[0].Members
	if !slices.Equal(first, []int32{0, 1, 2, 3}) {
		t.Fatalf("members %v", first)
	}
	for i, p := range parts {
		if m := p.tr.Comms[0].Members; !sameArray(m, first) {
			t.Errorf("file %d: members %v at %p, not shared with file 0's at %p", i, m, m, first)
		}
		if l := p.lists["0"]; !sameArray(l, first) {
			t.Errorf("file %d: stated list %v not shared with the members", i, l)
		}
	}
}

// Different lists keep their own arrays and contents.
func TestRankListsDistinctStayApart(t *testing.T) {
	parts := readParts(t, pgDoc(0, "3", "[0, 1]"), pgDoc(2, "3", "[2, 3]"), pgDoc(1, "3", ""))
	a, b := parts[0].tr.Comms[0].Members, parts[1].tr.Comms[0].Members
	if !slices.Equal(a, []int32{0, 1}) || !slices.Equal(b, []int32{2, 3}) || sameArray(a, b) {
		t.Fatalf("members %v and %v", a, b)
	}
	if m := parts[2].tr.Comms[0].Members; !slices.Equal(m, []int32{1}) {
		t.Fatalf("unstated list: members %v, want the file's own rank", m)
	}
}

func TestRankInternUnion(t *testing.T) {
	in := newRankIntern()
	a := in.get([]int32{0, 2})
	if got := in.union(a, []int32{2}); !sameArray(got, a) {
		t.Errorf("union with a subset gave a new array %v", got)
	}
	got := in.union(a, []int32{1})
	if !slices.Equal(got, []int32{0, 1, 2}) || !slices.Equal(a, []int32{0, 2}) {
		t.Errorf("union %v, a now %v", got, a)
	}
	if again := in.union([]int32{1}, []int32{0, 2}); !sameArray(again, got) {
		t.Errorf("equal union not shared: %v", again)
	}
}
