package model

import (
	"reflect"
	"testing"
)

// filledEvents returns n rows whose every column holds values that differ
// by part, column and row (100·part + 10·column + row), set through
// reflection so that a column added to Events later is filled too.
func filledEvents(part, n int) *Events {
	ev := &Events{}
	v := reflect.ValueOf(ev).Elem()
	for f := range v.NumField() {
		if !v.Type().Field(f).IsExported() {
			continue // the launch link: derived, recomputed by Merge
		}
		col := reflect.MakeSlice(v.Field(f).Type(), n, n)
		for i := range n {
			col.Index(i).Set(reflect.ValueOf(100*part + 10*f + i).Convert(col.Type().Elem()))
		}
		v.Field(f).Set(col)
	}
	return ev
}

// TestConcatEventsEveryColumn checks that every column of Events, by
// reflection, is copied in part order, and that release empties the parts
// while a plain concatenation leaves them as they were.
func TestConcatEventsEveryColumn(t *testing.T) {
	rows := [][2]int{{1, 0}, {1, 1}, {2, 0}, {2, 1}, {2, 2}} // (part, row) of each result row
	for _, release := range []bool{false, true} {
		a, b := filledEvents(1, 2), filledEvents(2, 3)
		got := reflect.ValueOf(ConcatEvents([]*Events{a, b}, release))
		for f := range got.NumField() {
			col, name := got.Field(f), got.Type().Field(f).Name
			if !got.Type().Field(f).IsExported() {
				if col.Len() != 0 {
					t.Errorf("release=%v: the launch link was carried (%d rows); it must be recomputed", release, col.Len())
				}
				continue
			}
			if col.Len() != len(rows) {
				t.Fatalf("release=%v: column %s has %d rows, want %d", release, name, col.Len(), len(rows))
			}
			for i, pr := range rows {
				want := reflect.ValueOf(100*pr[0] + 10*f + pr[1]).Convert(col.Type().Elem())
				if !col.Index(i).Equal(want) {
					t.Errorf("release=%v: %s[%d] = %v, want %v", release, name, i, col.Index(i), want)
				}
			}
		}
		if release && (a.Len() != 0 || !reflect.DeepEqual(*b, Events{})) {
			t.Errorf("released parts still hold rows: %+v %+v", *a, *b)
		}
		if !release && !reflect.DeepEqual(*a, *filledEvents(1, 2)) {
			t.Errorf("a plain concatenation changed its part: %+v", *a)
		}
	}
}

// TestMergeOwnedEqualsMerge checks that MergeOwned gives Merge's trace and
// takes the parts' events, while Merge leaves them as they were.
func TestMergeOwnedEqualsMerge(t *testing.T) {
	kept := twoRankTrace(t, 1, "b.json")
	want, err := Merge(kept, twoRankTrace(t, 0, "a.json"), &Trace{Skipped: []Skip{{Source: "x", Count: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(kept.Events, twoRankTrace(t, 1, "b.json").Events) {
		t.Errorf("Merge changed a part's events: %+v", kept.Events)
	}
	parts := []*Trace{twoRankTrace(t, 1, "b.json"), twoRankTrace(t, 0, "a.json"), {Skipped: []Skip{{Source: "x", Count: 1}}}}
	got, err := MergeOwned(parts...)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Events, want.Events) || !reflect.DeepEqual(got.Colls, want.Colls) || !reflect.DeepEqual(got.Names.All(), want.Names.All()) {
		t.Errorf("MergeOwned:\n%+v\nMerge:\n%+v", got.Events, want.Events)
	}
	for i, p := range parts {
		if p.Events.Len() != 0 {
			t.Errorf("part %d still holds %d events", i, p.Events.Len())
		}
	}
}

// TestConcatEventsInParallel: a concatenation large enough to copy its
// columns on several goroutines gives every column in part order, and
// releases every part's column.
func TestConcatEventsInParallel(t *testing.T) {
	sizes := []int{concatParallel/2 + 7, 3, concatParallel / 2}
	var parts []*Events
	for p, n := range sizes {
		parts = append(parts, filledEvents(p, n))
	}
	got := reflect.ValueOf(ConcatEvents(parts, true))
	for f := range got.NumField() {
		if !got.Type().Field(f).IsExported() {
			continue
		}
		col, row := got.Field(f), 0
		for p, n := range sizes {
			for i := range n {
				want := reflect.ValueOf(100*p + 10*f + i).Convert(col.Type().Elem())
				if !col.Index(row).Equal(want) {
					t.Fatalf("%s[%d] = %v, want %v (part %d, row %d)", got.Type().Field(f).Name, row, col.Index(row), want, p, i)
				}
				row++
			}
		}
		if col.Len() != row {
			t.Errorf("%s: %d rows, want %d", got.Type().Field(f).Name, col.Len(), row)
		}
	}
	for p, e := range parts {
		if !reflect.DeepEqual(*e, Events{}) {
			t.Errorf("part %d still holds rows after a released concatenation", p)
		}
	}
}
