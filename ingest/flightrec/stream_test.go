package flightrec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/flightrec/pickle"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// TestStreamedTraceIsTheKeptOne: the trace of JSON dumps read twice and
// streamed (one in record order, one not, one with a bad entry, which is
// skipped) equals the one built from their entries kept.
func TestStreamedTraceIsTheKeptOne(t *testing.T) {
	dir := t.TempDir()
	dumps := []string{frJSON(0, 1_000_000_000, 3), strings.Replace(frJSON(1, 1_002_000_000, 1), `"record_id": 1,`, `"record_id": 9,`, 1),
		strings.Replace(frJSON(2, 1_000_000_000, 3), `"process_group": ["0", "default_pg"]`, `"process_group": []`, 1)}
	for r, d := range dumps {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("dump_%d", r)), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(stream bool) *model.Trace {
		defer func(s bool) { streamJSON = s }(streamJSON)
		streamJSON = stream
		tr, err := Format.Read(context.Background(), []string{dir}, source.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	got, want := read(true), read(false)
	if want.Events.Len() != 4 || len(want.Skipped) != 1 || !reflect.DeepEqual(got, want) {
		t.Fatalf("streamed %+v\nkept %+v (want 4 events, 1 skip)", got, want)
	}
	var lazy []bool
	_, _, err := scanDumpsSkipping([]string{dir}, 0, 0, false, func(_ *model.FRDump, l bool) error { lazy = append(lazy, l); return nil })
	if err != nil || !reflect.DeepEqual(lazy, []bool{true, false}) {
		t.Fatalf("lazy %v, err %v: want the dump in record order lazy only", lazy, err)
	}
}

// TestOversizedPickleIsSkipped: a pickle over maxPickle is not decoded
// but skipped, the skip naming its size.
func TestOversizedPickleIsSkipped(t *testing.T) {
	defer func(n int64) { maxPickle = n }(maxPickle)
	dir := t.TempDir()
	big := append([]byte{0x80, 2}, []byte(strings.Repeat("N0", 600))...) // never decoded
	os.WriteFile(filepath.Join(dir, "rank_1"), append(big, "entries"...), 0o644)
	os.WriteFile(filepath.Join(dir, "rank_0"), []byte(frJSON(0, 1_000_000_000, 3)), 0o644)
	maxPickle = 1000
	tr, err := Format.Read(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("a pickle of %d bytes, over the 0 MiB", len(big)+len("entries"))
	if len(tr.Skipped) != 1 || tr.Skipped[0].Source != filepath.Join(dir, "rank_1") || !strings.Contains(tr.Skipped[0].Reason, want) {
		t.Fatalf("skips %+v, want rank_1's, saying %q", tr.Skipped, want)
	}
	maxPickle = 1 << 20
	var pe *pickle.Error
	if _, err := ReadDump(filepath.Join(dir, "rank_1")); !errors.As(err, &pe) {
		t.Fatalf("under the cap the pickle is decoded: err %v", err)
	}
}
