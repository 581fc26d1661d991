package model

import (
	"reflect"
	"runtime"
	"testing"
)

// TestBlockEventsApart: the columns carved from one block have n rows and
// room for no more each (so appending to one cannot write into the next),
// start zeroed, and share no memory: a value written to every row of one
// column leaves the others as they were. Reflection covers columns added
// to Events later.
func TestBlockEventsApart(t *testing.T) {
	for _, n := range []int{0, 1, 3, 7, 1000, 600_001} {
		ev := BlockEvents(n)
		v := reflect.ValueOf(&ev).Elem()
		cols := columnFields(v.Type())
		for _, f := range cols {
			col := v.Field(f)
			if col.IsNil() || col.Len() != n || col.Cap() != n {
				t.Fatalf("n %d: column %s nil %v, %d rows, room for %d", n, v.Type().Field(f).Name, col.IsNil(), col.Len(), col.Cap())
			}
			for i := range n {
				if !col.Index(i).IsZero() {
					t.Fatalf("n %d: %s[%d] = %v on a fresh block", n, v.Type().Field(f).Name, i, col.Index(i))
				}
			}
		}
		for _, f := range cols {
			col := v.Field(f)
			val := reflect.ValueOf(f + 1).Convert(col.Type().Elem())
			for i := range n {
				col.Index(i).Set(val)
			}
		}
		for _, f := range cols {
			col := v.Field(f)
			want := reflect.ValueOf(f + 1).Convert(col.Type().Elem())
			for i := range n {
				if !col.Index(i).Equal(want) {
					t.Fatalf("n %d: %s[%d] = %v, want %v (columns overlap)", n, v.Type().Field(f).Name, i, col.Index(i), want)
				}
			}
		}
	}
}

// TestBlockEventsNegative: a negative row count gives empty columns, not a
// panic.
func TestBlockEventsNegative(t *testing.T) {
	ev := BlockEvents(-5)
	if ev.Len() != 0 || ev.Rank == nil || len(ev.Coll) != 0 {
		t.Fatalf("BlockEvents(-5): %+v", ev)
	}
}

// appendConcat is ConcatEvents as it was before the block, the reference:
// each column made with room for every row, then every part appended.
func appendConcat(parts []*Events) Events {
	total := 0
	for _, p := range parts {
		total += p.Len()
	}
	var out Events
	if total == 0 {
		return out
	}
	ov := reflect.ValueOf(&out).Elem()
	for _, f := range columnFields(ov.Type()) {
		col := reflect.MakeSlice(ov.Field(f).Type(), 0, total)
		for _, p := range parts {
			col = reflect.AppendSlice(col, reflect.ValueOf(p).Elem().Field(f))
		}
		ov.Field(f).Set(col)
	}
	return out
}

// partsOf builds parts from fuzz bytes: each byte pair is a part's row
// count and, when ragged, one column cut shorter (a part no reader
// builds, which must still concatenate as appending would).
func partsOf(spec []byte, ragged bool) []*Events {
	var parts []*Events
	for i := 0; i+1 < len(spec) && len(parts) < 16; i += 2 {
		p := filledEvents(len(parts), int(spec[i])*int(spec[i]%5)) // 0 to 1,020 rows
		if ragged {
			v := reflect.ValueOf(p).Elem()
			cols := columnFields(v.Type())
			col := v.Field(cols[int(spec[i+1])%len(cols)])
			col.Set(col.Slice(0, col.Len()/2))
		}
		parts = append(parts, p)
	}
	return parts
}

// checkConcat compares ConcatEvents with appendConcat on copies of the
// same parts, with and without release, and checks that the result shares
// no memory with the parts it was copied from.
func checkConcat(t *testing.T, spec []byte, ragged bool) {
	want := appendConcat(partsOf(spec, ragged))
	for _, release := range []bool{false, true} {
		parts := partsOf(spec, ragged)
		got := ConcatEvents(parts, release)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("spec %v ragged %v release %v:\n got %+v\nwant %+v", spec, ragged, release, got, want)
		}
		if release {
			for i, p := range parts {
				if !reflect.DeepEqual(*p, Events{}) {
					t.Fatalf("spec %v: part %d not released: %+v", spec, i, *p)
				}
			}
			continue
		}
		v := reflect.ValueOf(&got).Elem()
		for _, f := range columnFields(v.Type()) {
			col := v.Field(f)
			for i := range col.Len() {
				col.Index(i).SetZero()
			}
		}
		if !reflect.DeepEqual(parts, partsOf(spec, ragged)) {
			t.Fatalf("spec %v: clearing the result changed the parts (they alias)", spec)
		}
	}
}

// TestConcatEventsEqualsAppend: zero rows, empty parts among full ones,
// one part, parts past the parallel threshold, ragged parts.
func TestConcatEventsEqualsAppend(t *testing.T) {
	specs := [][]byte{nil, {0, 0}, {0, 0, 0, 1}, {3, 0}, {0, 0, 4, 1, 0, 2, 9, 3}, {254, 0, 254, 1, 254, 2, 254, 3}}
	for _, s := range specs {
		for _, ragged := range []bool{false, true} {
			checkConcat(t, s, ragged)
		}
	}
	big := []*Events{filledEvents(0, concatParallel), filledEvents(1, 5)}
	want := appendConcat([]*Events{filledEvents(0, concatParallel), filledEvents(1, 5)})
	if got := ConcatEvents(big, true); !reflect.DeepEqual(got, want) {
		t.Fatalf("a parallel concatenation differs from appending")
	}
}

// FuzzConcatEventsEqualsAppend: whatever the parts, the block-built
// concatenation equals the append-built one.
func FuzzConcatEventsEqualsAppend(f *testing.F) {
	f.Add([]byte{}, false)
	f.Add([]byte{0, 0, 7, 3, 0, 1}, false)
	f.Add([]byte{12, 5, 3, 9}, true)
	f.Add([]byte{254, 4, 253, 4, 1, 1}, false)
	f.Fuzz(func(t *testing.T, spec []byte, ragged bool) {
		checkConcat(t, spec, ragged)
	})
}

// TestConcatEventsOverGarbage: the concatenation's block is not zeroed by
// the runtime, so every row must be written: over heap memory left full
// of ones by garbage, the result still equals appending the parts.
func TestConcatEventsOverGarbage(t *testing.T) {
	for _, n := range []int{1, 4097, concatParallel + 3} {
		spill := make([]uint64, 8*n)
		for i := range spill {
			spill[i] = ^uint64(0)
		}
		spill = nil
		runtime.GC()
		parts := []*Events{filledEvents(0, n/2), {}, filledEvents(2, n-n/2)}
		want := appendConcat([]*Events{filledEvents(0, n/2), {}, filledEvents(2, n-n/2)})
		if got := ConcatEvents(parts, false); !reflect.DeepEqual(got, want) {
			t.Fatalf("%d rows over garbage differ from appending", n)
		}
	}
}
