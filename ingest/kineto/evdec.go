package kineto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
)

// evDecoder decodes one traceEvents element into a rawEvent in a single
// pass over its bytes, validating it as encoding/json would (the test
// oracle: TestDecodersAgree, FuzzEventDecoder). Keys are matched as
// encoding/json matches them (exactly, else case-insensitively); only the
// fields of rawEvent are decoded, every other value is checked and skipped.
// Names come from a per-file cache (strCache), so a repeated name costs a
// map lookup and no allocation.
type evDecoder struct {
	b    []byte // the input: an element, or the unread part of the buffer
	ev   *rawEvent
	err  error
	strs strCache
	ent  *strEntry   // the cache entry of the last string decoded (nil: none)
	tmp  []byte      // unescaped strings and keys
	runs *memberRuns // nil until the first decode makes them (or a read hands them over)
	// argSt is the run state the event's args start in: its category's
	// (events of one category lay their args out alike, and the states
	// stay few however many names a file has), else its name's, else 0.
	argSt  runState
	catSet bool
	// prefixes are the members of events up to their first time or args
	// (eventPrefix), learnt in this file; nil until the first event
	prefixes *prefixTable
}

// errShort says the input ended inside the element: the splitter must read
// more (or the element is truncated).
var errShort = errors.New("unexpected end of input inside the event")

// errDeep says the element nests deeper than the splitter allows.
var errDeep = fmt.Errorf("nesting deeper than %d", maxDepth)

// maxDepth is the splitter's nesting limit (scanNested's stack).
const maxDepth = 64

// decode decodes the element at the start of b (no white space before it)
// into ev and returns its length. With whole, b is exactly one element, as
// the splitter cut it, and null is accepted as encoding/json accepts it;
// otherwise b is the unread buffer and only an object is decoded (anything
// else is left to the splitter).
func (d *evDecoder) decode(b []byte, ev *rawEvent, whole bool) (int, error) {
	d.b, d.ev, d.err = b, ev, nil
	d.argSt, d.catSet = 0, false
	if d.runs == nil {
		d.runs = new(memberRuns)
	}
	n := -1
	switch {
	case len(b) == 0:
		n = d.short()
	case b[0] == '{':
		n = d.object(1, lvEvent, 1)
	case whole && b[0] == 'n':
		n = d.literal(0, "null")
	default:
		n = d.fail(0, "an event must be an object")
	}
	if n >= 0 && whole && n != len(b) {
		n = d.fail(n, "after the event")
	}
	if n < 0 {
		return 0, d.err
	}
	return n, nil
}

func (d *evDecoder) short() int {
	d.err = errShort
	return -1
}

// fail records a syntax or type error at byte i of the element.
func (d *evDecoder) fail(i int, what string) int {
	if i < len(d.b) {
		d.err = fmt.Errorf("byte %d of the event: %s (at %q)", i, what, d.b[i])
	} else {
		d.err = fmt.Errorf("byte %d of the event: %s", i, what)
	}
	return -1
}

// skipWS skips white space; the indentation after a newline eight bytes
// at a time.
func skipWS(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' {
		switch b[i] {
		case ' ', '\t', '\r':
			i++
		case '\n':
			if i+9 > len(b) {
				i++
				continue
			}
			x := binary.LittleEndian.Uint64(b[i+1:]) ^ 0x2020202020202020 // zero bytes: spaces
			i += 1 + bits.TrailingZeros64(x)/8
		default:
			return i // a control character: not white space
		}
	}
	return i
}

// level says whose members an object holds.
type level uint8

const (
	lvEvent level = iota // the event
	lvArgs               // its args
)

// object reads the members of the event (lv lvEvent) or of its args
// (lvArgs) from i (after the '{') and returns the index after its '}'. An
// event's first members are compared with the prefixes learned before
// (eventPrefix) first; the bytes between values with the runs learned
// before (memberRuns); member reads the others.
func (d *evDecoder) object(i int, lv level, depth int) int {
	b := d.b
	st, runs, keys := runState(0), &d.runs[0], &eventKeys // the run state: before the first member
	if lv == lvArgs {
		runs, st, keys = &d.runs[1], d.argSt, &argsKeys
	}
	tail := -1 // in args: where the skipped members up to the object's end start (argTail)
	var k keyID
	first, have := true, false // have: k and st are those of the value at i (a prefix taken)
	from, slot := -1, -1       // an event's: where its members start while its prefix is read, and its slot (eventPrefix)
	if lv == lvEvent {
		var p *eventPrefix
		if p, slot = d.prefixAt(i); p != nil {
			i, k, st = d.takePrefix(p, i)
			if i >= len(b) || b[i] <= ' ' { // as after a run
				if i = skipWS(b, i); i >= len(b) {
					return d.short()
				}
			}
			first, have = false, true
		} else if slot >= 0 {
			from = i
		}
	}
	for ; ; first = false {
		if have {
			have = false
		} else {
			var run *memberRun // the run of state st whose bytes are those at i (two ways, masked words)
			if i <= len(b)-runBytes {
				p := (*[runBytes]byte)(b[i:])
				x0, x1 := binary.LittleEndian.Uint64(p[0:8]), binary.LittleEndian.Uint64(p[8:16])
				x2, x3 := binary.LittleEndian.Uint64(p[16:24]), binary.LittleEndian.Uint64(p[24:32])
				ways := &runs[st]
				if r := &ways[0]; (x0^r.w[0])&r.m[0]|(x1^r.w[1])&r.m[1]|(x2^r.w[2])&r.m[2]|(x3^r.w[3])&r.m[3] == 0 && r.n != 0 {
					run = r
				} else if r := &ways[1]; (x0^r.w[0])&r.m[0]|(x1^r.w[1])&r.m[1]|(x2^r.w[2])&r.m[2]|(x3^r.w[3])&r.m[3] == 0 && r.n != 0 {
					run = r
				}
			}
			if run != nil {
				if i += run.n; run.end {
					return d.endArgs(lv, tail, i)
				}
				k, st = run.id, run.next
				if i >= len(b) || b[i] <= ' ' { // a run may end the buffer
					if i = skipWS(b, i); i >= len(b) {
						return d.short()
					}
				}
			} else {
				var end bool
				if i, k, st, end = d.member(i, first, st, runs, keys); i < 0 || end {
					return d.endArgs(lv, tail, i)
				}
			}
		}
		if lv == lvEvent {
			if from >= 0 && !prefixKey(k) {
				d.learnPrefix(slot, from, i, k, st)
				from = -1
			}
			i = d.eventField(k, i, depth)
		} else {
			if k != kNone {
				tail = -1
			} else if tail < 0 {
				if e := d.argTail(i); e > 0 {
					return e
				}
				tail = i
			}
			i = d.argsField(k, i, depth)
		}
		if i < 0 {
			return -1
		}
	}
}

// An event's args often end in members nobody reads whose values repeat
// for every event of its name: a kernel's launch configuration, from
// "registers per thread" to "est. achieved occupancy %", a fifth of the
// profiler's bytes. The bytes from the first of such a run of skipped
// members' values to the args' '}' are kept in the name's cache entry
// (argTail) and, at the next event of that name, taken by one compare
// when they are the same. Bytes once checked member by member, all of
// whose keys argsField skips, are valid and skipped again wherever they
// recur before an args object's end (argsField reads by key alone).
const (
	minArgTail = 24  // shorter runs cost more to keep than to read
	maxArgTail = 512 // longer ones are not kept
)

// argTail returns the index after the args' '}' when the bytes from i
// (the value of a skipped member, the first since the last member read)
// are those kept for the event's name; else 0.
func (d *evDecoder) argTail(i int) int {
	e := d.ev.nameEnt
	if e == nil || len(e.tail) == 0 || len(d.b)-i < len(e.tail) {
		return 0
	}
	if string(d.b[i:i+len(e.tail)]) != string(e.tail) {
		return 0
	}
	return i + len(e.tail)
}

// endArgs returns end, the index after an object's '}'; for args whose
// last members from tail on were all skipped, it keeps their bytes for
// the event's name first (argTail).
func (d *evDecoder) endArgs(lv level, tail, end int) int {
	if lv != lvArgs || tail < 0 || end < 0 {
		return end
	}
	if n := end - tail; n >= minArgTail && n <= maxArgTail {
		if e := d.ev.nameEnt; e != nil {
			e.tail = append(e.tail[:0], d.b[tail:end]...)
		}
	}
	return end
}

// member reads the bytes from i (after the '{', or after a member's value
// when not first) to the next value the slow way (white space, the comma,
// the key and its match in keys, the colon) and learns them as a run of
// state st. It returns the value's index, the key and the state after the
// run, or at the object's end the index after its '}' and true (-1 on an
// error).
func (d *evDecoder) member(i int, first bool, st runState, runs *runTable, keys *keySet) (int, keyID, runState, bool) {
	b := d.b
	from := i
	i, end := d.skipToKey(i, first)
	if i < 0 || end {
		if end {
			runs.learn(b[from:i], st, kNone, true)
		}
		return i, kNone, st, end
	}
	var k keyID
	if i, k = d.memberKey(i+1, keys); i < 0 {
		return -1, kNone, st, false
	}
	// most keys end `": ` before the value
	if i += 3; i < len(b) && b[i-2] == ':' && b[i-1] == ' ' && b[i] > ' ' {
	} else if i = d.colon(i - 2); i < 0 {
		return -1, kNone, st, false
	}
	return i, k, runs.learn(b[from:i], st, k, false), false
}

// skipObject checks the members of an object nobody reads from i (after
// its '{') and returns the index after its '}'.
func (d *evDecoder) skipObject(i, depth int) int {
	for first := true; ; first = false {
		var end bool
		if i, end = d.skipToKey(i, first); i < 0 || end {
			return i
		}
		if i, _ = d.str(i + 1); i < 0 {
			return -1
		}
		if i = d.colon(i + 1); i < 0 {
			return -1
		}
		if i = d.value(i, depth); i < 0 {
			return -1
		}
	}
}

// skipToKey reads from i (after the '{', or after a member's value when
// not first) to the next key's opening quote and returns its index, or at
// the object's end the index after its '}' and true (-1 on an error).
func (d *evDecoder) skipToKey(i int, first bool) (int, bool) {
	b := d.b
	if !first && i+2 < len(b) && b[i] == ',' && b[i+1] == ' ' && b[i+2] == '"' { // most members: `, "`
		return i + 2, false
	}
	if i = skipWS(b, i); i >= len(b) {
		return d.short(), false
	}
	if b[i] == '}' {
		return i + 1, true
	}
	if !first {
		if b[i] != ',' {
			return d.fail(i, "want ',' or '}' after a value"), false
		}
		if i = skipWS(b, i+1); i >= len(b) {
			return d.short(), false
		}
	}
	if b[i] != '"' {
		return d.fail(i, "want a key"), false
	}
	return i, false
}

// colon reads the ':' after a key from i and the white space after it, and
// returns the index of the value.
func (d *evDecoder) colon(i int) int {
	b := d.b
	if i = skipWS(b, i); i < len(b) && b[i] == ':' {
		i++
	} else if i < len(b) {
		return d.fail(i, "want ':' after a key")
	}
	if i = skipWS(b, i); i >= len(b) {
		return d.short()
	}
	return i
}

// eventField decodes the value at i of the event's field k.
func (d *evDecoder) eventField(k keyID, i, depth int) int {
	ev := d.ev
	switch k {
	case kPh:
		return d.strField(i, &ev.Ph)
	case kCat:
		d.ent = nil
		if i = d.strField(i, &ev.Cat); d.ent != nil {
			d.argSt, d.catSet = runState(d.ent.run), true
		}
		return i
	case kName:
		d.ent = ev.nameEnt // kept when the value is null
		i = d.strField(i, &ev.Name)
		if ev.nameEnt = d.ent; d.ent != nil && !d.catSet {
			d.argSt = runState(d.ent.run)
		}
		return i
	case kPid:
		return d.id(i, depth, &ev.Pid)
	case kTid:
		return d.id(i, depth, &ev.Tid)
	case kTs:
		return d.num(i, depth, &ev.Ts)
	case kDur:
		return d.num(i, depth, &ev.Dur)
	case kArgs:
		return d.args(i, depth)
	}
	return d.value(i, depth)
}

// args reads the event's args object (or null).
func (d *evDecoder) args(i, depth int) int {
	switch d.b[i] {
	case '{':
		if depth >= maxDepth {
			return d.deep()
		}
		return d.object(i+1, lvArgs, depth+1)
	case 'n':
		return d.literal(i, "null")
	}
	return d.fail(i, "args must be an object")
}

// argsField decodes the value at i of the args field k.
func (d *evDecoder) argsField(k keyID, i, depth int) int {
	a := &d.ev.Args
	switch k {
	case kExtID:
		return d.intField(i, depth, &a.ExtID)
	case kCorr:
		return d.intField(i, depth, &a.Corr)
	case kStream:
		return d.intField(i, depth, &a.Stream)
	case kDevice:
		return d.intField(i, depth, &a.Device)
	case kArgName:
		return d.strField(i, &a.Name)
	case kLabels:
		return d.strField(i, &a.Labels)
	case kDevID:
		return d.intField(i, depth, &a.DevID)
	case kAllocated:
		return d.intField(i, depth, &a.Allocated)
	case kReserved:
		return d.intField(i, depth, &a.Reserved)
	}
	if k >= kCollName {
		return d.commField(k, i, depth)
	}
	return d.value(i, depth)
}

// commField decodes the value at i of a collective arg (commFields).
func (d *evDecoder) commField(k keyID, i, depth int) int {
	c := &d.ev.Args.commFields
	var u interface{ UnmarshalJSON([]byte) error }
	switch k {
	case kCollName:
		u = &c.CollName
	case kInNelems:
		u = &c.InNelems
	case kOutNelems:
		u = &c.OutNelems
	case kGroupSize:
		u = &c.GroupSize
	case kDType:
		u = &c.DType
	case kPGName:
		u = &c.PGName
	case kPGDesc:
		u = &c.PGDesc
	case kPGRanks:
		u = &c.PGRanks
	case kPGID:
		u = &c.PGID
	case kSeq:
		u = &c.Seq
	case kSrc:
		u = &c.Src
	case kDst:
		u = &c.Dst
	case kInDims:
		u = &c.InDims
	default:
		u = &c.InType
	}
	return d.unmarshal(i, depth, u)
}

// unmarshal checks the value at i and hands its text to u, as
// encoding/json does for a json.Unmarshaler.
func (d *evDecoder) unmarshal(i, depth int, u interface{ UnmarshalJSON([]byte) error }) int {
	e := d.value(i, depth)
	if e < 0 {
		return -1
	}
	if err := u.UnmarshalJSON(d.b[i:e]); err != nil {
		d.err = err
		return -1
	}
	return e
}

// num decodes ts or dur: a plain literal is parsed as it is checked (as
// numText.UnmarshalJSON would parse it); anything else goes to
// numText.UnmarshalJSON, called directly.
func (d *evDecoder) num(i, depth int, n *numText) int {
	if v, e, ok := plainMicrosAt(d.b, i); ok {
		n.b = d.b[i:e:e]
		n.ns, n.plain, n.set = v, true, true
		return e
	}
	e := d.value(i, depth)
	if e >= 0 {
		_ = n.UnmarshalJSON(d.b[i:e])
	}
	return e
}

// id decodes pid or tid (idVal.UnmarshalJSON, called directly).
func (d *evDecoder) id(i, depth int, v *idVal) int {
	if n, e, ok := plainInt(d.b, i); ok {
		v.N = n // as UnmarshalJSON sets a number
		return e
	}
	e := d.value(i, depth)
	if e < 0 {
		return -1
	}
	if err := v.UnmarshalJSON(d.b[i:e]); err != nil {
		d.err = err
		return -1
	}
	return e
}

// maxPredicted is the longest string strField predicts.
const maxPredicted = 2048

// strField decodes a string (null leaves dst as it is). A plain string
// (no escape, ASCII) seen before under the same predictKey is taken by one
// compare of its bytes and the quote after them, without the scan: those
// bytes are a valid string body that ends at that quote, as str finds.
func (d *evDecoder) strField(i int, dst *string) int {
	b := d.b
	switch b[i] {
	case '"':
		key, keyed := predictKey(b, i+1)
		if keyed {
			if ent := d.strs.predicted(b, i+1, key); ent != nil {
				*dst, d.ent = ent.s, ent
				return i + 1 + len(ent.s) + 1
			}
		}
		e, fl := d.str(i + 1)
		if e < 0 {
			return -1
		}
		s := b[i+1 : e]
		if fl != 0 {
			d.tmp = unquoteJSON(d.tmp[:0], s)
			s = d.tmp
		}
		switch len(s) {
		case 0:
			*dst, d.ent = "", nil
		case 1:
			*dst, d.ent = oneByte[s[0]], nil
		default:
			d.ent = d.strs.get(s)
			*dst = d.ent.s
			if keyed && fl == 0 && len(s) <= maxPredicted {
				d.strs.pred[key&(uint(len(d.strs.pred))-1)] = d.ent
			}
		}
		return e + 1
	case 'n':
		return d.literal(i, "null")
	}
	return d.fail(i, "want a string")
}

// intField decodes an integer that fits int64 (null leaves dst as it is);
// a fraction or an exponent is an error, as for encoding/json.
func (d *evDecoder) intField(i, depth int, dst *int64) int {
	b := d.b
	if c := b[i]; c == 'n' {
		return d.literal(i, "null")
	} else if c != '-' && (c < '0' || c > '9') {
		return d.fail(i, "want an integer")
	}
	if n, e, ok := plainInt(b, i); ok {
		*dst = n
		return e
	}
	e := d.number(i)
	if e < 0 {
		return -1
	}
	n, ok := parseInt(b[i:e])
	if !ok {
		v, err := strconv.ParseInt(string(b[i:e]), 10, 64)
		if err != nil {
			return d.fail(i, "want an integer that fits 64 bits")
		}
		n = v
	}
	*dst = n
	return e
}

func (d *evDecoder) deep() int {
	d.err = errDeep
	return -1
}

// value checks one value at i and returns the index after it.
func (d *evDecoder) value(i, depth int) int {
	switch c := d.b[i]; {
	case c == '"':
		e, _ := d.str(i + 1)
		if e < 0 {
			return -1
		}
		return e + 1
	case c == '-' || c >= '0' && c <= '9':
		if e := numberEnd(d.b, i); e > 0 { // number, without its call
			return e
		}
		return d.numberSlow(i)
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return d.deep()
		}
		if c == '{' {
			return d.skipObject(i+1, depth+1)
		}
		return d.array(i+1, depth+1)
	case c == 't':
		return d.literal(i, "true")
	case c == 'f':
		return d.literal(i, "false")
	case c == 'n':
		return d.literal(i, "null")
	}
	return d.fail(i, "want a value")
}

// array checks the elements of an array from i (after its '[').
func (d *evDecoder) array(i, depth int) int {
	b := d.b
	if i = skipWS(b, i); i >= len(b) {
		return d.short()
	}
	if b[i] == ']' {
		return i + 1
	}
	for {
		if i = d.value(i, depth); i < 0 {
			return -1
		}
		if i = skipWS(b, i); i >= len(b) {
			return d.short()
		}
		switch b[i] {
		case ',':
			if i+2 < len(b) && b[i+1] == ' ' && b[i+2] > ' ' { // most elements: `, `
				i += 2
			} else if i = skipWS(b, i+1); i >= len(b) {
				return d.short()
			}
		case ']':
			return i + 1
		default:
			return d.fail(i, "want ',' or ']' after an array element")
		}
	}
}

// literal checks true, false or null at i.
func (d *evDecoder) literal(i int, lit string) int {
	b := d.b
	if len(b)-i < len(lit) {
		if string(b[i:]) == lit[:len(b)-i] {
			return d.short()
		}
		return d.fail(i, "want "+lit)
	}
	if string(b[i:i+len(lit)]) != lit {
		return d.fail(i, "want "+lit)
	}
	return i + len(lit)
}

// number checks a JSON number at i: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// The common shapes take numberEnd; the rest, and every error, numberSlow.
func (d *evDecoder) number(i int) int {
	if e := numberEnd(d.b, i); e > 0 {
		return e
	}
	return d.numberSlow(i)
}

// numberEnd is the end of the number at i when it is [1-9][0-9]{0,6} or 0,
// with or without a fraction of 1 to 7 digits, no exponent, and 16 bytes
// of input follow i; else 0 (numberSlow decides). It reads one word for
// the digits and one for the fraction, so a number nobody reads costs no
// loop.
func numberEnd(b []byte, i int) int {
	if i+16 > len(b) {
		return 0
	}
	x := binary.LittleEndian.Uint64(b[i:])
	n := uint(bits.TrailingZeros64(nonDigits(x))) / 8 // 1..7: the next byte is in x
	if n-1 >= 7 || n > 1 && byte(x) == '0' {
		return 0
	}
	j := i + int(n)
	c := byte(x >> (8 * n & 63))
	if c == '.' {
		y := binary.LittleEndian.Uint64(b[j+1 : j+9]) // j+9 <= i+16
		m := uint(bits.TrailingZeros64(nonDigits(y))) / 8
		if m-1 >= 7 {
			return 0
		}
		j += 1 + int(m)
		c = byte(y >> (8 * m & 63))
	}
	if c|0x20 == 'e' {
		return 0
	}
	return j
}

// numberSlow checks a JSON number at i byte by byte (digit runs eight at
// a time), with the errors of every malformed number.
func (d *evDecoder) numberSlow(i int) int {
	b := d.b
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return d.short()
	case b[i] == '0':
		i++
	case b[i] >= '1' && b[i] <= '9':
		i = digitsEnd(b, i+1)
	default:
		return d.fail(i, "want a digit")
	}
	if i < len(b) && b[i] == '.' {
		if i = d.someDigits(i + 1); i < 0 {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i = d.someDigits(i); i < 0 {
			return -1
		}
	}
	if i >= len(b) {
		return d.short() // a number inside an element is always followed by something
	}
	return i
}

// someDigits checks one or more digits at i.
func (d *evDecoder) someDigits(i int) int {
	b := d.b
	if i >= len(b) {
		return d.short()
	}
	if b[i] < '0' || b[i] > '9' {
		return d.fail(i, "want a digit")
	}
	return digitsEnd(b, i+1)
}

// digitsEnd returns the index of the first byte from i that is not a
// digit, eight bytes at a time.
func digitsEnd(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// below '0' borrows, above '9' carries into the high bit; the lowest
		// flagged byte is a real one (borrows and carries run upwards)
		if t := ((x - '0'*ones) | (x + (0x80-'9'-1)*ones) | x) & highs; t != 0 {
			return i + bits.TrailingZeros64(t)/8
		}
	}
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
