package model

import (
	"bytes"
	"unsafe"
)

// NextKind returns the first row in [from, to) whose Kind is k, or to when
// there is none: a scan of the kind column a machine word or more at a
// time (bytes.IndexByte), for the loops that read only the rows of one
// kind (communication kernels are a few per cent of a trace's rows).
// Rows before 0 or past the kind column are of no kind, so a loop
// "for i := NextKind(k, lo, hi); i < hi; i = NextKind(k, i+1, hi)" ends
// even over columns of unequal length.
func (ev *Events) NextKind(k Kind, from, to int) int {
	end := min(to, len(ev.Kind))
	if from = max(from, 0); from < end {
		if j := bytes.IndexByte(kindBytes(ev.Kind[from:end]), byte(k)); j >= 0 {
			return from + j
		}
	}
	return to
}

// kindBytes is the kind column's bytes (Kind is a uint8), no copy.
func kindBytes(k []Kind) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(k))), len(k))
}
