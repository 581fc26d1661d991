package model

import (
	"reflect"
	"unsafe"
)

// BlockEvents returns events of n rows (zero values) whose columns are
// carved out of one allocation, which is offered to the kernel as
// transparent huge pages (hugePages). Event columns are tens of MiB written
// once, and a fresh process otherwise takes a page fault for every 4 KiB of
// them: on this project's machines a large share of a run's system time.
// Each column has capacity n, so appending to one never writes into
// another. Only columns whose elements hold no pointers share the block
// (every column of Events today; one added later that holds pointers gets
// its own allocation), so one block is as safe for the collector as ten.
// The columns are empty but not nil when n is 0.
func BlockEvents(n int) Events {
	n = max(n, 0)
	return carveEvents(n, make([]uint64, max(blockWords(n), 1)))
}

// blockWords is the 8-byte words that n rows of Events' pointer-free
// columns take in a block.
func blockWords(n int) int {
	t := reflect.TypeFor[Events]()
	words := 0
	for _, f := range columnFields(t) {
		if et := t.Field(f).Type.Elem(); pointerFree(et) {
			words += columnWords(n, et)
		}
	}
	return words
}

// carveEvents offers block to the kernel as huge pages and returns the
// columns of n rows carved from it (blockWords(n) words at least).
func carveEvents(n int, block []uint64) Events {
	hugePages(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(block))), 8*len(block)))
	var ev Events
	v := reflect.ValueOf(&ev).Elem()
	off := 0
	for _, f := range columnFields(v.Type()) {
		col := v.Field(f)
		t := col.Type().Elem()
		if !pointerFree(t) {
			col.Set(reflect.MakeSlice(col.Type(), n, n))
			continue
		}
		col.Set(reflect.SliceAt(t, unsafe.Add(unsafe.Pointer(unsafe.SliceData(block)), 8*off), n))
		off += columnWords(n, t)
	}
	return ev
}

// columnFields is the indices of Events' exported fields, its columns
// (the unexported launch link is derived, not a column).
func columnFields(t reflect.Type) []int {
	var cols []int
	for f := range t.NumField() {
		if t.Field(f).IsExported() {
			cols = append(cols, f)
		}
	}
	return cols
}

// columnWords is the 8-byte words that n elements of t take, rounded up so
// that every column of a block starts 8-byte aligned.
func columnWords(n int, t reflect.Type) int { return (n*int(t.Size()) + 7) / 8 }

// pointerFree reports whether values of t hold no pointers (and need at
// most 8-byte alignment): booleans and numbers, which is what a block of
// uint64 words may hold.
func pointerFree(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}
