package gunzip

import "encoding/binary"

// huffman decodes a Huffman block's symbols until its end (state
// stHeader) or until the window has no room for another symbol. One
// refill loads at least 56 bits, enough for a whole match (a length code
// and its extra bits, 20, and a distance code and its, 28); past the end
// of the input the refill loads zeros and each symbol is checked not to
// have used them. The bit buffer is kept in locals (d) while it runs.
func (f *inflater) huffman() error {
	lit, dist := &f.lit, &f.dist
	if f.fixed {
		t := fixed()
		lit, dist = &t[0], &t[1]
	}
	d := bitReader{in: f.in, pos: f.pos, bits: f.bits, nb: f.nb, over: f.over}
	w, st := decodeSymbols(&d, lit, dist, f.win, f.w, f.base)
	f.pos, f.bits, f.nb, f.over, f.w = d.pos, d.bits, d.nb, d.over, w
	switch st {
	case blockEnd:
		f.state = stHeader
	case invalid:
		return errInvalid
	}
	return nil
}

// What stopped decodeSymbols.
const (
	windowFull = iota
	blockEnd
	invalid
)

// bitReader is the inflater's bit buffer, copied into a local.
type bitReader struct {
	in   []byte
	pos  int
	bits uint64
	nb   uint
	over uint
}

// refillSlow loads bits a byte at a time until at least 56 are loaded
// (zeros past the end of the input, counted in over): a refill near its end.
func (d *bitReader) refillSlow() {
	for d.nb <= 55 {
		if d.pos < len(d.in) {
			d.bits |= uint64(d.in[d.pos]) << d.nb
			d.pos++
		} else {
			d.over++
		}
		d.nb += 8
	}
}

// decodeSymbols writes the symbols of a Huffman block into win from w
// until the block ends or win[w:] has no room for another symbol, or up to
// a symbol it does not decode; it returns where and why it stopped. base
// is where the stream's output starts in win.
func decodeSymbols(d *bitReader, lit, dist *table, win []byte, w, base int) (int, int) {
	lim := len(win) - maxMatch - slack
	if d.over == 0 {
		var st int
		if w, st = decodeFast(d, lit, dist, win, w, base); st != windowFull {
			return w, st
		}
	}
	in := d.in
	bits, nb, pos := d.bits, d.nb, d.pos
	overBits := 8 * d.over // bits past the input loaded (zeros; consuming them is truncation)
	for w <= lim {
		if pos+8 <= len(in) {
			bits |= binary.LittleEndian.Uint64(in[pos:]) << nb
			pos += int(63-nb) >> 3
			nb |= 56
		} else {
			d.bits, d.nb, d.pos = bits, nb, pos
			d.refillSlow()
			bits, nb, pos, overBits = d.bits, d.nb, d.pos, 8*d.over
		}
		e := lit.prim[bits&(1<<litBits-1)]
		if e.isLink() {
			e = lit.sub[e.val()+int(bits>>litBits&e.mask())] + entry(litBits)
		}
		k := e.kind()
		if k == kLiteral {
			bits >>= e.n()
			nb -= e.n()
			if nb < overBits {
				break
			}
			win[w] = byte(e.val())
			w++
			continue
		}
		if k != kLength {
			if k == kEnd {
				bits >>= e.n()
				nb -= e.n()
				if nb >= overBits {
					d.bits, d.nb, d.pos = bits, nb, pos
					return w, blockEnd
				}
			}
			break
		}
		bits >>= e.n()
		nb -= e.n()
		n := e.val() + int(bits&e.mask())
		bits >>= e.extra()
		nb -= e.extra()
		de := dist.prim[bits&(1<<distBits-1)]
		if de.isLink() {
			de = dist.sub[de.val()+int(bits>>distBits&de.mask())] + entry(distBits)
		}
		if de.kind() != kDist {
			break
		}
		bits >>= de.n()
		nb -= de.n()
		off := de.val() + int(bits&de.mask())
		bits >>= de.extra()
		nb -= de.extra()
		if nb < overBits || off > w-base {
			break
		}
		copyMatch(win, w, off, n)
		w += n
	}
	d.bits, d.nb, d.pos = bits, nb, pos
	if w <= lim {
		return w, invalid // every break
	}
	return w, windowFull
}

// copyMatch copies n bytes from d back to win[w:], as LZ77 means it (the
// copy may overlap what it writes): a short match as two words, a long
// one that does not overlap by copy, one that does eight bytes at a time
// when d allows, else by doubling copies of the period.
func copyMatch(win []byte, w, d, n int) {
	src := w - d
	switch {
	case d >= 16 && n <= 16:
		x, y := binary.LittleEndian.Uint64(win[src:]), binary.LittleEndian.Uint64(win[src+8:])
		binary.LittleEndian.PutUint64(win[w:], x)
		binary.LittleEndian.PutUint64(win[w+8:], y)
	case d >= n:
		copy(win[w:w+n], win[src:src+n])
	case d >= 8:
		for k := 0; k < n; k += 8 {
			binary.LittleEndian.PutUint64(win[w+k:], binary.LittleEndian.Uint64(win[src+k:]))
		}
	default:
		for k := 0; k < n; {
			k += copy(win[w+k:w+n], win[src:w+k])
		}
	}
}

// decodeFast is decodeSymbols while at least eight bytes of input are
// left: every refill loads real bits, so no symbol is checked for bits
// past the input's end. It returns windowFull also when it stops for the
// input's end (decodeSymbols goes on from there). Its match decoding is
// decodeSymbols' written again without those checks: as a function of its
// own (cost 230, past the inliner's 80) it would be a call a match.
func decodeFast(d *bitReader, lit, dist *table, win []byte, w, base int) (int, int) {
	lim := len(win) - maxMatch - slack
	in := d.in
	bits, nb, pos := d.bits, d.nb, d.pos
	for w <= lim && pos+8 <= len(in) {
		bits |= binary.LittleEndian.Uint64(in[pos:]) << nb
		pos += int(63-nb) >> 3
		nb |= 56
		e := lit.prim[bits&(1<<litBits-1)]
		if e.isLink() {
			e = lit.sub[e.val()+int(bits>>litBits&e.mask())] + entry(litBits)
		}
		k := e.kind()
		if k == kLiteral {
			bits >>= e.n()
			nb -= e.n()
			win[w] = byte(e.val())
			w++
			continue
		}
		if k != kLength {
			if k == kEnd {
				bits >>= e.n()
				nb -= e.n()
				d.bits, d.nb, d.pos = bits, nb, pos
				return w, blockEnd
			}
			d.bits, d.nb, d.pos = bits, nb, pos
			return w, invalid
		}
		bits >>= e.n()
		nb -= e.n()
		n := e.val() + int(bits&e.mask())
		bits >>= e.extra()
		nb -= e.extra()
		de := dist.prim[bits&(1<<distBits-1)]
		if de.isLink() {
			de = dist.sub[de.val()+int(bits>>distBits&de.mask())] + entry(distBits)
		}
		if de.kind() != kDist {
			d.bits, d.nb, d.pos = bits, nb, pos
			return w, invalid
		}
		bits >>= de.n()
		nb -= de.n()
		off := de.val() + int(bits&de.mask())
		bits >>= de.extra()
		nb -= de.extra()
		if off > w-base {
			d.bits, d.nb, d.pos = bits, nb, pos
			return w, invalid
		}
		copyMatch(win, w, off, n)
		w += n
	}
	d.bits, d.nb, d.pos = bits, nb, pos
	return w, windowFull
}
