package dataset

import (
	"unsafe"

	"github.com/tpptrace/tpptrace/model"
)

// blockColumns returns the ten event columns of n rows carved out of one
// allocation (their element types hold no pointers, so one block is as
// safe for the collector as ten), which is offered to the kernel as
// transparent huge pages (hugePages): the columns are tens of MiB written
// once from the files, and a fresh process otherwise takes a page fault
// for every 4 KiB of them, a large share of a warm run's system time.
func blockColumns(n int) *model.Events {
	words := func(elems, size int) int { return (elems*size + 7) / 8 }
	parts := []int{words(n, 4), words(n, 4), words(n, 1), words(n, 4), words(n, 8), words(n, 8), words(n, 8),
		words(n, 4), words(n, 4), words(n, 4)}
	total := 0
	for _, p := range parts {
		total += p
	}
	block := make([]uint64, total)
	hugePages(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(block))), 8*total))
	off := 0
	next := func(i int) unsafe.Pointer {
		p := unsafe.Pointer(&block[off])
		off += parts[i]
		return p
	}
	if n == 0 {
		return &model.Events{Rank: []int32{}, Stream: []int32{}, Kind: []model.Kind{}, Name: []int32{}, Start: []int64{},
			Dur: []int64{}, Corr: []int64{}, Iter: []int32{}, Micro: []int32{}, Coll: []int32{}}
	}
	return &model.Events{
		Rank: unsafe.Slice((*int32)(next(0)), n), Stream: unsafe.Slice((*int32)(next(1)), n),
		Kind: unsafe.Slice((*model.Kind)(next(2)), n), Name: unsafe.Slice((*int32)(next(3)), n),
		Start: unsafe.Slice((*int64)(next(4)), n), Dur: unsafe.Slice((*int64)(next(5)), n),
		Corr: unsafe.Slice((*int64)(next(6)), n), Iter: unsafe.Slice((*int32)(next(7)), n),
		Micro: unsafe.Slice((*int32)(next(8)), n), Coll: unsafe.Slice((*int32)(next(9)), n),
	}
}

// uintptrOf is the address of b's first byte.
func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
