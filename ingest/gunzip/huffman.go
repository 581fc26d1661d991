package gunzip

import "math/bits"

// entry is one slot of a decoding table: the bits its code takes (n), what
// it decodes to (kind), the extra bits that follow it and a value (a
// literal byte, a length or distance base, or a subtable's offset).
type entry uint32

// The kinds of entry.
const (
	kLiteral uint32 = iota // val is the byte
	kLength                // val is the match length's base, extra its extra bits
	kEnd                   // the end of the block
	kLink                  // val is a subtable's offset, extra its index bits
	kBad                   // no code (an incomplete code's gap, or a symbol deflate forbids)
	kDist                  // val is the distance's base, extra its extra bits
)

// mk packs an entry: n code bits, its kind, extra bits and value.
func mk(n uint, kind uint32, extra uint, val int) entry {
	return entry(uint32(n) | kind<<8 | uint32(extra)<<12 | uint32(val)<<16)
}

// The fields of an entry (mk's arguments), its extra bits' mask, and
// tests of its kind.
func (e entry) n() uint        { return uint(e & 0xff) }
func (e entry) kind() uint32   { return uint32(e>>8) & 0xf }
func (e entry) extra() uint    { return uint(e>>12) & 0xf }
func (e entry) val() int       { return int(e >> 16) }
func (e entry) mask() uint64   { return 1<<e.extra() - 1 }
func badEntry() entry          { return mk(0, kBad, 0, 0) }
func (e entry) isLink() bool   { return e.kind() == kLink }
func (e entry) isBad() bool    { return e.kind() == kBad }
func (e entry) isLength() bool { return e.kind() == kLength }

// maxCodeLen is deflate's longest code.
const maxCodeLen = 15

// table decodes one Huffman code: the primary table of 1<<primary entries
// indexed by the next bits of the stream (codes are sent most significant
// bit first, so the index is the code reversed), then one subtable of
// 1<<(longest-primary) entries for each prefix of a longer code.
type table struct {
	primary uint
	prim    [1 << litBits]entry // the primary table (its first 1<<primary entries)
	sub     []entry             // the subtables
}

// symbol is what a code's symbol decodes to.
type symbol struct {
	kind  uint32
	extra uint
	val   int
}

// meaning is what symbol s of a code decodes to.
type meaning func(s int) symbol

// build makes t from the code lengths of the symbols (0: not used). It
// reports false, as compress/flate does, for a code that over-subscribes
// or leaves bit sequences unassigned, but for a single code of one bit
// (zlib writes it); an empty code builds a table of gaps.
func (t *table) build(lengths []uint8, primary uint, sym meaning) bool {
	var count [maxCodeLen + 1]int
	lo, hi := 0, 0
	for _, l := range lengths {
		if l == 0 {
			continue
		}
		count[l]++
		lo, hi = minNonZero(lo, int(l)), max(hi, int(l))
	}
	t.reset(primary)
	if hi == 0 {
		return true
	}
	next, ok := firstCodes(&count, lo, hi)
	if !ok {
		return false
	}
	for s, l := range lengths {
		if l != 0 {
			t.add(next[l], uint(l), uint(hi), sym(s))
			next[l]++
		}
	}
	return true
}

// minNonZero is the smaller of a and b, or b when a is 0 (none yet).
func minNonZero(a, b int) int {
	if a == 0 || b < a {
		return b
	}
	return a
}

// firstCodes is the first canonical code of each length from lo to hi, and
// whether the code is complete (or a single one-bit code), as
// compress/flate's huffmanDecoder.init decides.
func firstCodes(count *[maxCodeLen + 1]int, lo, hi int) ([maxCodeLen + 1]int, bool) {
	var next [maxCodeLen + 1]int
	code := 0
	for l := lo; l <= hi; l++ {
		code <<= 1
		next[l] = code
		code += count[l]
	}
	return next, code == 1<<hi || code == 1 && hi == 1
}

// reset empties t to a primary table of gaps.
func (t *table) reset(primary uint) {
	t.primary, t.sub = primary, t.sub[:0]
	for i := range 1 << primary {
		t.prim[i] = badEntry()
	}
}

// add enters the code of length l (code, most significant bit first) of a
// symbol meaning kind, extra, val; hi is the code's longest length.
func (t *table) add(code int, l, hi uint, m symbol) {
	rev := int(bits.Reverse16(uint16(code)) >> (16 - l))
	if l <= t.primary {
		for i := rev; i < 1<<t.primary; i += 1 << l {
			t.prim[i] = mk(l, m.kind, m.extra, m.val)
		}
		return
	}
	off := t.subtable(rev&(1<<t.primary-1), hi-t.primary)
	rest, sl := rev>>t.primary, l-t.primary
	for i := rest; i < 1<<(hi-t.primary); i += 1 << sl {
		t.sub[off+i] = mk(sl, m.kind, m.extra, m.val)
	}
}

// subtable is the offset of the subtable of primary slot p (sub index
// bits), made on first use.
func (t *table) subtable(p int, sub uint) int {
	if e := t.prim[p]; e.isLink() {
		return e.val()
	}
	off := len(t.sub)
	for range 1 << sub {
		t.sub = append(t.sub, badEntry())
	}
	t.prim[p] = mk(t.primary, kLink, sub, off)
	return off
}
