package gunzip

import (
	"encoding/binary"
	"errors"
)

// errInvalid stops the inflater on anything it does not decode (corrupt or
// truncated data, a block type 3): the Reader hands the file over, and the
// other reader's error is the one a caller sees.
var errInvalid = errors.New("gunzip: not decoded here")

// The window: the last 32 KiB of output (what a match may reach) and room
// for chunk bytes more; slack after it lets a match's copy write eight
// bytes at a time past its end.
const (
	history  = 32 << 10
	chunk    = 256 << 10
	maxMatch = 258
	slack    = 16
	winSize  = history + chunk + maxMatch + slack
)

// The inflater's states between calls of fill.
const (
	stHeader  = iota // before a block's header
	stHuffman        // inside a Huffman block
	stStored         // inside a stored block (stored bytes left)
	stDone           // after the final block
)

// inflater decodes one deflate stream from in into win.
type inflater struct {
	in   []byte
	pos  int    // the next byte of in to load into bits
	bits uint64 // loaded bits, the next in the lowest
	nb   uint   // how many of bits are loaded
	over uint   // zero bytes loaded past the end of in (truncated when consumed)
	more bool   // more input may follow in (a stream): fill stops short of its end

	win  []byte
	w    int // the next byte of win to write
	base int // where this stream's output starts in win (a match may not reach before it)

	state  int
	final  bool // the block being read is the last
	stored int  // stored bytes left
	lit    table
	dist   table
	cl     table
	lens   [286 + 30]uint8
	fixed  bool
}

// start begins a deflate stream at in[pos:], its output after what win
// holds.
func (f *inflater) start(in []byte, pos int) {
	if f.win == nil {
		f.win = make([]byte, winSize)
	}
	f.in, f.pos, f.bits, f.nb, f.over = in, pos, 0, 0, 0
	f.base, f.state, f.final = f.w, stHeader, false
}

// limit is the last index of win at which a symbol is decoded (its match
// and the slack fit after it).
func (f *inflater) limit() int { return len(f.win) - maxMatch - slack }

// slide keeps the last history bytes of the window at its start, when
// there is no room for another symbol; all of win[:w] must be read.
func (f *inflater) slide() {
	if f.w <= f.limit() {
		return
	}
	keep := min(history, f.w)
	shift := f.w - keep
	copy(f.win, f.win[shift:f.w])
	f.w, f.base = keep, max(f.base-shift, 0)
}

// refill loads bits until at least 56 are loaded, eight bytes at a time
// while in has them, else one byte at a time (zeros past its end, counted
// in over).
func (f *inflater) refill() {
	if f.pos+8 <= len(f.in) {
		f.bits |= binary.LittleEndian.Uint64(f.in[f.pos:]) << f.nb
		f.pos += int(63-f.nb) >> 3
		f.nb |= 56
		return
	}
	d := bitReader{in: f.in, pos: f.pos, bits: f.bits, nb: f.nb, over: f.over}
	d.refillSlow()
	f.pos, f.bits, f.nb, f.over = d.pos, d.bits, d.nb, d.over
}

// take returns the next n bits (n <= 32, after a refill) and consumes
// them.
func (f *inflater) take(n uint) uint64 {
	v := f.bits & (1<<n - 1)
	f.bits >>= n
	f.nb -= n
	return v
}

// short reports whether bits past the end of in were consumed.
func (f *inflater) short() bool { return f.nb < 8*f.over }

// fill decodes until the window has no room for another symbol or the
// stream ends (state stDone), or, while more input may follow, until fewer
// than reserve bytes of in are left.
func (f *inflater) fill() error {
	for f.w <= f.limit() {
		if f.more && len(f.in)-f.pos < reserve {
			return nil // the Reader loads more input first
		}
		var err error
		switch f.state {
		case stHeader:
			err = f.header()
		case stHuffman:
			err = f.huffman()
		case stStored:
			err = f.copyStored()
		default:
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// header reads a block's header (and a dynamic block's codes), or ends
// the stream after the final block.
func (f *inflater) header() error {
	if f.final {
		f.state = stDone
		return nil
	}
	f.refill()
	f.final = f.take(1) == 1
	var err error
	switch f.take(2) {
	case 0:
		err = f.startStored()
	case 1:
		f.fixed, f.state = true, stHuffman
	case 2:
		f.fixed, f.state = false, stHuffman
		err = f.dynamic()
	default:
		err = errInvalid
	}
	if err == nil && f.short() {
		err = errInvalid
	}
	return err
}

// bytePos drops the bits left of the current byte and returns the index of
// the next unread byte of in (past its end when zeros past it were
// consumed), emptying the bit buffer.
func (f *inflater) bytePos() int {
	f.take(f.nb % 8)
	p := f.pos - int(f.nb/8) + int(f.over)
	f.bits, f.nb, f.over, f.pos = 0, 0, 0, p
	return p
}

// startStored reads a stored block's length and its complement.
func (f *inflater) startStored() error {
	p := f.bytePos()
	if p+4 > len(f.in) {
		return errInvalid
	}
	n := int(binary.LittleEndian.Uint16(f.in[p:]))
	if uint16(n) != ^binary.LittleEndian.Uint16(f.in[p+2:]) {
		return errInvalid
	}
	f.pos, f.stored, f.state = p+4, n, stStored
	return nil
}

// copyStored copies stored bytes into the window, as many as fit.
func (f *inflater) copyStored() error {
	n := min(f.stored, f.limit()+maxMatch-f.w, len(f.in)-f.pos)
	copy(f.win[f.w:], f.in[f.pos:f.pos+n])
	f.w, f.pos, f.stored = f.w+n, f.pos+n, f.stored-n
	switch {
	case f.stored == 0:
		f.state = stHeader
	case f.pos == len(f.in):
		return errInvalid // truncated
	}
	return nil
}
