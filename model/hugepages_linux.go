package model

import (
	"syscall"
	"unsafe"
)

// hugePageSize is the transparent huge page size of the platforms that
// have them (x86-64, arm64 with 4 KiB pages).
const hugePageSize = 2 << 20

// hugePages asks the kernel to back the whole huge pages inside b with
// transparent huge pages (madvise MADV_HUGEPAGE; a hint: when the kernel
// has none to give, or refuses, or THP is off, b is backed as before).
// Blocks under two huge pages are left alone (at most one whole page
// inside them).
func hugePages(b []byte) {
	if len(b) < 2*hugePageSize {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (start + hugePageSize - 1) &^ (hugePageSize - 1)
	hi := (start + uintptr(len(b))) &^ (hugePageSize - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(b[lo-start:hi-start], syscall.MADV_HUGEPAGE)
}
