package model

import "unsafe"

// mallocgc is the runtime's allocator, which the runtime offers to
// packages outside it under this name and signature (go.dev/issue/67401).
// Asked not to zero, it returns memory as the heap holds it: for a large
// block, pages never touched since the kernel gave them, or left over
// from garbage.
//
//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer

// uninitWords returns n words of pointer-free memory that the runtime has
// not zeroed, for a block every visible byte of which its caller writes
// before reading (ConcatEvents). Zeroing a large block whose pages the
// heap reuses but the kernel has taken back faults every 4 KiB of it in
// before hugePages can offer it as huge pages, on one core.
func uninitWords(n int) []uint64 {
	if n <= 0 {
		return nil
	}
	p := mallocgc(uintptr(n)*8, nil, false)
	return unsafe.Slice((*uint64)(p), n)
}
