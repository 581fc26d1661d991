package kineto

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Flags of a scanned string: what decoding it needs.
const (
	fEsc  uint8 = 1 << iota // a backslash escape
	fHigh                   // a byte >= 0x80
)

// str scans a string body from i (after its opening quote) and returns the
// index of its closing quote and its flags. Control characters and bad
// escapes are errors, as in encoding/json.
func (d *evDecoder) str(i int) (int, uint8) {
	b := d.b
	if i = plainEnd(b, i); i < len(b) && b[i] == '"' {
		return i, 0 // most strings: plain ASCII
	}
	return d.strRest(i)
}

// strRest is str from the first byte that is not plain.
func (d *evDecoder) strRest(i int) (int, uint8) {
	b := d.b
	var fl uint8
	for {
		i = plainEnd(b, i)
		if i >= len(b) {
			return d.short(), 0
		}
		switch c := b[i]; {
		case c == '"':
			return i, fl
		case c == '\\':
			fl |= fEsc
			if i = d.escape(i); i < 0 {
				return -1, 0
			}
		case c < ' ':
			return d.fail(i, "control character in a string"), 0
		default:
			fl |= fHigh
			i++
		}
	}
}

// notPlain flags (0x80) the bytes of x that are a quote, a backslash, a
// control character or not ASCII; the lowest flagged byte is a real one
// (borrows only run upwards).
func notPlain(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return ((x - 0x20*ones) | ((x ^ '"'*ones) - ones) | ((x ^ '\\'*ones) - ones) | x) & highs
}

// plainEnd returns the index of the first byte from i that is a quote, a
// backslash, a control character or not ASCII, eight bytes at a time.
func plainEnd(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if t := notPlain(binary.LittleEndian.Uint64(b[i:])); t != 0 {
			return i + bits.TrailingZeros64(t)/8
		}
	}
	for i < len(b) && plainByte[b[i]] {
		i++
	}
	return i
}

// plainByte marks the bytes a string holds as they are.
var plainByte = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// escape checks the escape at i (a backslash) and returns the index after it.
func (d *evDecoder) escape(i int) int {
	b := d.b
	if i+1 >= len(b) {
		return d.short()
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2
	case 'u':
		for j := i + 2; j < i+6; j++ {
			if j >= len(b) {
				return d.short()
			}
			if !isHex(b[j]) {
				return d.fail(j, "bad \\u escape")
			}
		}
		return i + 6
	}
	return d.fail(i+1, "bad escape")
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// unquoteJSON appends the text of the checked string body s (escapes
// decoded, invalid UTF-8 and lone surrogates as U+FFFD) to dst, as
// encoding/json decodes a string.
func unquoteJSON(dst, s []byte) []byte {
	for r := 0; r < len(s); {
		switch c := s[r]; {
		case c == '\\' && s[r+1] == 'u':
			rr := getu4(s[r:])
			r += 6
			if utf16.IsSurrogate(rr) {
				if dec := utf16.DecodeRune(rr, getu4(s[r:])); dec != unicode.ReplacementChar {
					dst, r = utf8.AppendRune(dst, dec), r+6
					continue
				}
				rr = unicode.ReplacementChar
			}
			dst = utf8.AppendRune(dst, rr)
		case c == '\\':
			dst, r = append(dst, unescaped[s[r+1]]), r+2
		case c < utf8.RuneSelf:
			dst, r = append(dst, c), r+1
		default:
			rr, size := utf8.DecodeRune(s[r:])
			dst, r = utf8.AppendRune(dst, rr), r+size
		}
	}
	return dst
}

// unescaped maps the byte after a backslash to what it stands for.
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// strCache hands out one string per distinct text, so that a name seen
// again costs a lookup and no allocation: first in a small direct-mapped
// table (no hashing of the whole text), then in a map. The map stops
// growing at 4 MiB of text (a file of distinct names then allocates per
// name, as before).
type strCache struct {
	front [256]*strEntry
	pred  [1024]*strEntry // plain strings by predictKey: read without a scan (strField)
	m     map[string]*strEntry
	n     int
	runs  int // entries made
}

// strEntry is one distinct string and what the reader derived from it
// once (fileReader.nameOf).
type strEntry struct {
	s    string
	name int32  // its index in the trace's Names plus 1, 0 before it is interned
	comm int8   // isCommKernel: 0 not yet asked, 1 no, 2 yes
	run  uint8  // the first run state of its events' args (memberRuns)
	tail []byte // its events' last args' skipped members, to their '}' (argTail)
}

// oneByte are the strings of one byte (ph is one).
var oneByte = func() (t [256]string) {
	for c := range t {
		t[c] = string([]byte{byte(c)})
	}
	return t
}()

// predictBytes is how many bytes from a string's start predictKey hashes:
// enough that kernel names sharing a long prefix seldom share a key.
const predictBytes = 40

// predictKey hashes the predictBytes bytes at j (a string's body and what
// follows it) to an index of strCache.pred; false when fewer bytes follow.
func predictKey(b []byte, j int) (uint, bool) {
	if j > len(b)-predictBytes {
		return 0, false
	}
	p := (*[predictBytes]byte)(b[j:])
	h := binary.LittleEndian.Uint64(p[0:8])
	for k := 8; k < predictBytes; k += 8 {
		h = (h ^ h>>29 ^ binary.LittleEndian.Uint64(p[k:k+8])) * 0x9E3779B97F4A7C15
	}
	return uint(h >> 54), true // 10 bits
}

// predicted is the entry of the string whose body starts at j when it is
// the plain string pred holds under key: its bytes and then a quote.
func (c *strCache) predicted(b []byte, j int, key uint) *strEntry {
	e := c.pred[key&(uint(len(c.pred))-1)]
	if e == nil {
		return nil
	}
	if n := j + len(e.s); n < len(b) && b[n] == '"' && string(b[j:n]) == e.s {
		return e
	}
	return nil
}

func (c *strCache) get(b []byte) *strEntry {
	h := (uint(len(b))*131 + uint(b[0])*31 + uint(b[len(b)-1])) & uint(len(c.front)-1)
	if e := c.front[h]; e != nil && e.s == string(b) {
		return e
	}
	e, ok := c.m[string(b)]
	if !ok {
		c.runs++
		e = &strEntry{s: string(b), run: uint8(c.runs % firstStates)}
		if len(b) <= 2048 && c.n < 4<<20 {
			if c.m == nil {
				c.m = map[string]*strEntry{}
			}
			c.m[e.s] = e
			c.n += len(b)
		}
	}
	c.front[h] = e
	return e
}

// keyID names a field of rawEvent.
type keyID uint8

const (
	kNone keyID = iota
	kPh
	kCat
	kName
	kPid
	kTid
	kTs
	kDur
	kArgs
	kExtID
	kCorr
	kStream
	kDevice
	kArgName
	kLabels
	kDevID
	kAllocated
	kReserved
	kCollName // commFields from here on
	kInNelems
	kOutNelems
	kGroupSize
	kDType
	kPGName
	kPGDesc
	kPGRanks
	kPGID
	kSeq
	kSrc
	kDst
	kInDims
	kInType
)

// eventKey matches a key of the event exactly.
func eventKey(k []byte) keyID {
	switch string(k) {
	case "ph":
		return kPh
	case "cat":
		return kCat
	case "name":
		return kName
	case "pid":
		return kPid
	case "tid":
		return kTid
	case "ts":
		return kTs
	case "dur":
		return kDur
	case "args":
		return kArgs
	}
	return kNone
}

// argsKey matches a key of the args exactly.
func argsKey(k []byte) keyID {
	switch string(k) {
	case "External id":
		return kExtID
	case "correlation":
		return kCorr
	case "stream":
		return kStream
	case "device":
		return kDevice
	case "name":
		return kArgName
	case "labels":
		return kLabels
	case "Device Id":
		return kDevID
	case "Total Allocated":
		return kAllocated
	case "Total Reserved":
		return kReserved
	}
	return commKey(k)
}

func commKey(k []byte) keyID {
	switch string(k) {
	case "Collective name":
		return kCollName
	case "In msg nelems":
		return kInNelems
	case "Out msg nelems":
		return kOutNelems
	case "Group size":
		return kGroupSize
	case "dtype":
		return kDType
	case "Process Group Name":
		return kPGName
	case "Process Group Description":
		return kPGDesc
	case "Process Group Ranks":
		return kPGRanks
	case "Process Group ID":
		return kPGID
	case "Seq":
		return kSeq
	case "Src Rank":
		return kSrc
	case "Dst Rank":
		return kDst
	case "Input Dims":
		return kInDims
	case "Input type":
		return kInType
	}
	return kNone
}

// keySet is the keys of one object kind: two collision-free hash tables
// for the exact match (keys of at most 7 bytes by their word, longer ones
// by their first and last eight bytes) and the list for the
// case-insensitive match encoding/json falls back to.
type keySet struct {
	words [64]wordSlot // keys of at most 7 bytes, by their word (shortWord)
	mult  uint64       // the word hash's multiplier, collision-free for these keys
	longs [64]longSlot // keys of 8 bytes or more
	lmult uint64       // the long hash's multiplier
	names []string
	ids   []keyID
	first [32]uint32 // by key length: the lower-cased first letters of the keys
}

type wordSlot struct {
	w  uint64
	id keyID
}

// longSlot is a key of 8 bytes or more: its first and last eight bytes
// (which overlap below 16), its length and, for the bytes between, its name.
type longSlot struct {
	w1, w2 uint64
	n      int
	name   string
	id     keyID
}

func (s *keySet) wordHash(w uint64) uint64 { return (w * s.mult) >> 58 }

func (s *keySet) longHash(w1, w2 uint64, n int) uint64 {
	return ((w1 ^ bits.RotateLeft64(w2, 29) ^ uint64(n)) * s.lmult) >> 58
}

// shortWord is a key of at most 7 bytes as a little-endian word, bit 63 set
// (a plain key's bytes are below 0x80, so no key gives 0).
func shortWord(k string) uint64 {
	var w uint64
	for j := len(k) - 1; j >= 0; j-- {
		w = w<<8 | uint64(k[j])
	}
	return w | 1<<63
}

// setTables fills the word and long tables, trying multipliers until no
// two keys share a slot.
func (s *keySet) setTables() {
	for m := uint64(0x9E3779B97F4A7C15); ; m += 0x5851F42D4C957F2E {
		s.mult, s.lmult, s.words, s.longs = m|1, m|1, [64]wordSlot{}, [64]longSlot{}
		ok := true
		for j, n := range s.names {
			if len(n) <= 7 {
				e := &s.words[s.wordHash(shortWord(n))]
				ok = ok && e.w == 0
				*e = wordSlot{shortWord(n), s.ids[j]}
				continue
			}
			w1, w2 := binary.LittleEndian.Uint64([]byte(n)), binary.LittleEndian.Uint64([]byte(n[len(n)-8:]))
			e := &s.longs[s.longHash(w1, w2, len(n))]
			ok = ok && e.n == 0
			*e = longSlot{w1, w2, len(n), n, s.ids[j]}
		}
		if ok {
			return
		}
	}
}

func newKeySet(match func([]byte) keyID, names ...string) keySet {
	s := keySet{names: names}
	for _, n := range names {
		s.ids = append(s.ids, match([]byte(n)))
		s.first[len(n)] |= 1 << (n[0] | 0x20 - 'a')
	}
	s.setTables()
	return s
}

var (
	eventKeys = newKeySet(eventKey, "ph", "cat", "name", "pid", "tid", "ts", "dur", "args")
	argsKeys  = newKeySet(argsKey, "External id", "correlation", "stream", "device", "name", "labels",
		"Device Id", "Total Allocated", "Total Reserved", "Collective name", "In msg nelems", "Out msg nelems",
		"Group size", "dtype", "Process Group Name", "Process Group Description", "Process Group Ranks",
		"Process Group ID", "Seq", "Src Rank", "Dst Rank", "Input Dims", "Input type")
)

// short matches the short key whose word (shortWord) is w exactly.
func (s *keySet) short(w uint64) keyID {
	if e := &s.words[s.wordHash(w)]; e.w == w {
		return e.id
	}
	return kNone
}

// long matches a key of 8 bytes or more exactly.
func (s *keySet) long(k []byte) keyID {
	n := len(k)
	if n < 8 {
		return kNone
	}
	w1, w2 := binary.LittleEndian.Uint64(k), binary.LittleEndian.Uint64(k[n-8:])
	e := &s.longs[s.longHash(w1, w2, n)]
	if e.w1 == w1 && e.w2 == w2 && e.n == n && (n <= 16 || string(k[8:n-8]) == e.name[8:n-8]) {
		return e.id
	}
	return kNone
}

// exact matches key exactly.
func (s *keySet) exact(key []byte) keyID {
	if len(key) == 0 {
		return kNone
	}
	if len(key) <= 7 {
		var w uint64
		for j := len(key) - 1; j >= 0; j-- {
			w = w<<8 | uint64(key[j])
		}
		return s.short(w | 1<<63)
	}
	return s.long(key)
}

// memberKey scans the key from i (after its opening quote) and matches it
// in s as encoding/json does: exactly, else (the key unescaped) by
// bytes.EqualFold. It returns the index of the key's closing quote (-1 on
// an error) and the key's id. A plain key is matched from the words it was
// scanned with.
func (d *evDecoder) memberKey(i int, s *keySet) (int, keyID) {
	b := d.b
	if i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		if t := notPlain(x); t != 0 {
			j := bits.TrailingZeros64(t) / 8
			if byte(x>>(8*j)) == '"' { // a plain key of at most 7 bytes
				if k := s.short(x&(1<<(8*j)-1) | 1<<63); k != kNone {
					return i + j, k
				}
				return i + j, s.foldPlain(b[i : i+j])
			}
		} else if e := plainEnd(b, i+8); e < len(b) && b[e] == '"' { // plain, 8 bytes or more
			if k := s.long(b[i:e]); k != kNone {
				return e, k
			}
			return e, s.foldPlain(b[i:e])
		}
	}
	e, fl := d.str(i)
	if e < 0 {
		return -1, kNone
	}
	key := b[i:e]
	if fl == 0 {
		if k := s.exact(key); k != kNone {
			return e, k
		}
		return e, s.foldPlain(key)
	}
	return e, d.foldKey(key, fl, s)
}

// foldPlain matches the plain ASCII key, which matched nothing exactly,
// without case.
func (s *keySet) foldPlain(key []byte) keyID {
	if !s.mayFold(key) {
		return kNone
	}
	return s.fold(key)
}

// foldKey matches a key that is escaped or not ASCII: unescaped, exactly,
// else without case.
func (d *evDecoder) foldKey(key []byte, fl uint8, s *keySet) keyID {
	if fl&fEsc != 0 {
		d.tmp = unquoteJSON(d.tmp[:0], key)
		key = d.tmp
		if k := s.exact(key); k != kNone {
			return k
		}
	}
	return s.fold(key)
}

func (s *keySet) fold(key []byte) keyID {
	for j, n := range s.names {
		if bytes.EqualFold(key, []byte(n)) {
			return s.ids[j]
		}
	}
	return kNone
}

// mayFold tells whether the ASCII key can equal one of s's keys but for case.
func (s *keySet) mayFold(key []byte) bool {
	if len(key) == 0 || len(key) >= len(s.first) {
		return false
	}
	c := key[0] | 0x20
	return c >= 'a' && c <= 'z' && s.first[len(key)]&(1<<(c-'a')) != 0
}
