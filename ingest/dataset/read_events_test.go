package dataset

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestEventsDecodedInPlace: the events files of a dataset are decoded
// straight into the trace's columns, and give the same events as chunks
// decoded on their own and concatenated.
func TestEventsDecodedInPlace(t *testing.T) {
	dir, _ := writeFixture(t, 3)
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	chunks, all, err := readEventFiles(dir, m, m.Ranks, false)
	if err != nil {
		t.Fatal(err)
	}
	if all == nil || !inPlace(all, chunks) {
		t.Fatal("the events were not decoded in place")
	}
	inPlaceTrace := &model.Trace{}
	addEvents(inPlaceTrace, chunks, all, false)
	own := make([]*chunk, len(m.Ranks))
	for i, r := range m.Ranks {
		own[i] = &chunk{}
		if err := readEventFile(EventsPath(dir, r), r, m.RankEvents[i], false, own[i]); err != nil {
			t.Fatal(err)
		}
	}
	concat := &model.Trace{}
	addEvents(concat, own, nil, false)
	if concat.Events.Len() == 0 || !reflect.DeepEqual(inPlaceTrace.Events, concat.Events) || !reflect.DeepEqual(inPlaceTrace.Names, concat.Names) {
		t.Fatalf("in place %d events, concatenated %d: they differ", inPlaceTrace.Events.Len(), concat.Events.Len())
	}
}

// TestPresizeTrustsOnlyPlausibleCounts: counts that are negative, missing
// or far beyond what the files could hold are not allocated up front.
func TestPresizeTrustsOnlyPlausibleCounts(t *testing.T) {
	dir, _ := writeFixture(t, 2)
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if all, _ := presize(dir, m.Ranks, m.RankEvents); all == nil || all.Len() != int(m.Events) {
		t.Fatalf("the manifest's own counts were not presized (%v)", all)
	}
	for _, bad := range []int64{-1, 1 << 40} {
		counts := append([]int64(nil), m.RankEvents...)
		counts[1] = bad
		if all, _ := presize(dir, m.Ranks, counts); all != nil {
			t.Fatalf("count %d presized %d rows", bad, all.Len())
		}
	}
	if all, _ := presize(dir, []int32{0, 99}, []int64{1, 1}); all != nil {
		t.Fatal("a rank without a file presized")
	}
}

// TestManifestCountsChecked: a manifest that claims more or fewer events
// for a rank than its file holds is an error, presized or not.
func TestManifestCountsChecked(t *testing.T) {
	for _, delta := range []int64{1, -1, 1 << 40} {
		dir, _ := writeFixture(t, 2)
		path := filepath.Join(dir, ManifestFile)
		var raw map[string]any
		b, _ := os.ReadFile(path)
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		counts := raw["rank_events"].([]any)
		counts[2] = counts[2].(float64) + float64(delta)
		b, _ = json.Marshal(raw)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "the manifest says") {
			t.Fatalf("count off by %d: %v", delta, err)
		}
	}
}

// TestEventFileRowsChecked: an events file with a row of another rank, or
// with starts out of order, is an error naming the first such row.
func TestEventFileRowsChecked(t *testing.T) {
	row := func(rank int32, start int64) eventRow {
		return eventRow{eventCore{Rank: rank, Start: start, Dur: 1, Kind: "compute", Name: "k", Stream: -1, Corr: -1, Iter: -1, Micro: -1, Coll: -1},
			eventColl{Op: "none", Bytes: -1, Comm: -1, Seq: -1, Peer: -1, GroupSize: -1}}
	}
	for _, c := range []struct {
		rows []eventRow
		want string
	}{
		{[]eventRow{row(1, 5), row(1, 6), row(2, 7)}, "row 2 belongs to rank 2, not 1"},
		{[]eventRow{row(1, 5), row(1, 9), row(1, 7)}, "row 2 is out of order"},
		{[]eventRow{row(1, 5), row(1, 5), row(1, 7)}, ""},
	} {
		path := filepath.Join(t.TempDir(), "rank.parquet")
		if err := writeFile(path, c.rows, writeOptions(writer{fast: true}, "events")); err != nil {
			t.Fatal(err)
		}
		_, err := decodeColumns(openRaw(t, path), 1, 0, false)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Fatalf("rows %v: error %v, want %q", c.rows, err, c.want)
		}
	}
}
