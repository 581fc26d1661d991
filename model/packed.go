package model

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// packBlock is how many values a Packed column keeps per block.
const packBlock = 128

// Chunk sizes of a Packed column's offsets: the first chunk is small, each
// next one twice the last, up to maxChunk, so that growing never copies
// and a column holds at most one chunk not yet full.
const (
	minChunk = 256
	maxChunk = 16 << 10
)

// Packed is a column of int64 values stored compactly: in blocks of 128
// values, each block kept as its smallest value plus every value's offset
// from it in as few bytes as the block's range needs, none when the block
// is constant. A value costs a byte or two where its neighbours are close
// (percentages, clocks, a GPU index), and at most eight plus 17 bytes per
// block. The zero value is an empty column.
type Packed struct {
	base   []int64  // per sealed block: its smallest value
	at     []uint64 // per sealed block: chunk<<32 | where its offsets start in the chunk
	width  []uint8  // per sealed block: bytes per offset, 0 to 8
	chunks [][]byte
	tail   []int64 // the open block's values
}

// Len is the number of values.
func (p *Packed) Len() int { return len(p.base)*packBlock + len(p.tail) }

// Grow makes room for the block headers of n more values.
func (p *Packed) Grow(n int) {
	b := n / packBlock
	p.base, p.at, p.width = slices.Grow(p.base, b), slices.Grow(p.at, b), slices.Grow(p.width, b)
}

// Append adds v at the end.
func (p *Packed) Append(v int64) {
	if p.tail == nil {
		p.tail = make([]int64, 0, packBlock)
	}
	p.tail = append(p.tail, v)
	if len(p.tail) == packBlock {
		p.seal()
	}
}

// seal packs the open block.
func (p *Packed) seal() {
	lo, hi := slices.Min(p.tail), slices.Max(p.tail)
	w := (bits.Len64(uint64(hi-lo)) + 7) / 8
	p.base, p.width = append(p.base, lo), append(p.width, uint8(w))
	if w == 0 {
		p.at = append(p.at, 0)
		p.tail = p.tail[:0]
		return
	}
	c := p.room(w * packBlock)
	p.at = append(p.at, uint64(c)<<32|uint64(len(p.chunks[c])))
	for _, v := range p.tail {
		p.chunks[c] = binary.LittleEndian.AppendUint64(p.chunks[c], uint64(v-lo))
		p.chunks[c] = p.chunks[c][:len(p.chunks[c])-8+w]
	}
	p.tail = p.tail[:0]
}

// room returns a chunk with n bytes (plus 8 to append a word) free.
func (p *Packed) room(n int) int {
	last := len(p.chunks) - 1
	if last >= 0 && cap(p.chunks[last])-len(p.chunks[last]) >= n+8 {
		return last
	}
	size := minChunk
	if last >= 0 {
		size = min(2*(cap(p.chunks[last])-8), maxChunk)
	}
	p.chunks = append(p.chunks, make([]byte, 0, max(size, n)+8))
	return len(p.chunks) - 1
}

// At returns value i.
func (p *Packed) At(i int) int64 {
	b := i / packBlock
	if b >= len(p.base) {
		return p.tail[i-b*packBlock]
	}
	w := int(p.width[b])
	if w == 0 {
		return p.base[b]
	}
	chunk := p.chunks[p.at[b]>>32]
	o := int(uint32(p.at[b])) + (i-b*packBlock)*w
	u := binary.LittleEndian.Uint64(chunk[o:cap(chunk)]) & (^uint64(0) >> (64 - 8*w))
	return p.base[b] + int64(u)
}

// Bytes is the memory the column holds, for tests and benchmarks.
func (p *Packed) Bytes() int {
	n := 8*cap(p.base) + 8*cap(p.at) + cap(p.width) + 24*cap(p.chunks) + 8*cap(p.tail)
	for _, c := range p.chunks {
		n += cap(c)
	}
	return n
}

// clone returns a copy that shares no memory with p.
func (p *Packed) clone() Packed {
	out := Packed{base: slices.Clone(p.base), at: slices.Clone(p.at), width: slices.Clone(p.width)}
	for _, c := range p.chunks {
		out.chunks = append(out.chunks, append(make([]byte, 0, cap(c)), c...))
	}
	if p.tail != nil {
		out.tail = append(make([]int64, 0, packBlock), p.tail...)
	}
	return out
}
