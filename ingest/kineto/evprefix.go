package kineto

import "encoding/binary"

// Event prefixes: the members an event starts with, up to its first time
// or args, taken in one compare.
//
// A profiler writes an event's stable members first, in one order:
// `"ph": "X", "cat": "kernel", "name": "...", "pid": 0, "tid": 7, ` and
// then `"ts"`, `"dur"`, `"args"`, whose values change from event to
// event. Events of one name on one thread repeat those first bytes
// exactly (PyTorch's traces as the generator's: of the 44.9 k events of
// the real ns-resolution trace that are not flow arrows, 213 distinct
// prefixes), and each of their members costs a run compare, a string's
// prediction or an integer's parse. The decoder keeps, by a hash of an
// event's first prefixKeyBytes bytes, up to prefixWays prefixes: the bytes
// up to the value of its first member whose key is not a prefix key
// (prefixKey), that key included, with what they decoded to (the event's
// fields, the decoder's string entry and args state, the member loop's
// state and key there); an event whose bytes start with one takes those
// and goes on from that value. Equal bytes decode the same way from a
// fresh event (the fields they set depend on nothing before them: the
// learnt runs and strings only make the same result quicker), so nothing
// decoded changes. Templated kernel names share their first 64 bytes, so
// a slot holds several (the last learnt first); first bytes seen once (a
// flow arrow's id, a name of its own) are noted and learnt only when they
// come again. Prefixes hold the file's string entries and are the file's
// decoder's own.

// prefixSlots is how many slots of prefixWays prefixes a decoder keeps
// (by a hash of an event's first bytes), prefixKeyBytes how many bytes the
// hash reads, and minPrefix and maxPrefix the shortest and longest prefix
// kept.
const (
	prefixSlotsLog = 8
	prefixSlots    = 1 << prefixSlotsLog
	prefixWays     = 4
	prefixKeyBytes = 64
	minPrefix      = 32
	maxPrefix      = 1024
)

// prefixTable is a decoder's prefixes by slot, and per slot the hash of
// the first bytes of the last event that found no prefix there (seen): a
// prefix is learnt the second time its first bytes come, so that events
// whose bytes come once (a flow arrow, a name of its own) cost no copy.
type prefixTable struct {
	e    [prefixSlots][prefixWays]*eventPrefix // the last learnt first
	seen [prefixSlots]uint64
	free []eventPrefix // prefixes not yet used, allocated a few at a time
}

// alloc returns a new prefix.
func (t *prefixTable) alloc() *eventPrefix {
	if len(t.free) == 0 {
		t.free = make([]eventPrefix, 16)
	}
	e := &t.free[0]
	t.free = t.free[1:]
	return e
}

// eventPrefix is one learnt prefix: its bytes and what they decoded to.
type eventPrefix struct {
	b             []byte
	k             keyID    // the key of the member whose value follows
	st            runState // the member loop's state there
	ph, cat, name string
	nameEnt, ent  *strEntry
	pid, tid      idVal
	argSt         runState
	catSet        bool
}

// prefixKey says whether a member of key k belongs in a prefix: those
// whose values name the event, not the times or args.
func prefixKey(k keyID) bool {
	return k == kPh || k == kCat || k == kName || k == kPid || k == kTid
}

// prefixAt returns the prefix that the event's bytes from i (after its
// '{') start with, if one is kept, and the slot to learn the event's in
// (-1: too few bytes left to tell, or first bytes seen for the first time).
func (d *evDecoder) prefixAt(i int) (*eventPrefix, int) {
	b := d.b
	if len(b)-i < prefixKeyBytes {
		return nil, -1
	}
	p := (*[prefixKeyBytes]byte)(b[i:])
	h := uint64(0)
	for j := 0; j < prefixKeyBytes; j += 8 {
		h = (h ^ binary.LittleEndian.Uint64(p[j:])) * 0x9E3779B97F4A7C15
	}
	slot := int(h >> (64 - prefixSlotsLog))
	if d.prefixes == nil {
		d.prefixes = new(prefixTable)
	}
	t := d.prefixes
	for _, e := range &t.e[slot] {
		if e == nil {
			break
		}
		if len(b)-i > len(e.b) && string(b[i:i+len(e.b)]) == string(e.b) {
			return e, slot
		}
	}
	if h |= 1; t.seen[slot] != h { // seen once: learnt if it comes again
		t.seen[slot] = h
		return nil, -1
	}
	return nil, slot
}

// takePrefix sets what prefix e decodes to and returns the index of the
// value after it, its key and the member loop's state.
func (d *evDecoder) takePrefix(e *eventPrefix, i int) (int, keyID, runState) {
	ev := d.ev
	ev.Ph, ev.Cat, ev.Name, ev.nameEnt = e.ph, e.cat, e.name, e.nameEnt
	ev.Pid, ev.Tid = e.pid, e.tid
	d.ent, d.argSt, d.catSet = e.ent, e.argSt, e.catSet
	return i + len(e.b), e.k, e.st
}

// learnPrefix keeps the bytes from `from` to i (the value of a member of
// key k, the first not a prefix key; st the loop's state there) and what
// they decoded to in slot.
func (d *evDecoder) learnPrefix(slot, from, i int, k keyID, st runState) {
	if n := i - from; n < minPrefix || n > maxPrefix {
		return
	}
	ways := &d.prefixes.e[slot]
	e := ways[prefixWays-1] // the oldest, its memory reused
	if e == nil {
		e = d.prefixes.alloc()
	}
	copy(ways[1:], ways[:prefixWays-1])
	ways[0] = e
	ev := d.ev
	*e = eventPrefix{b: append(e.b[:0], d.b[from:i]...), k: k, st: st, ph: ev.Ph, cat: ev.Cat, name: ev.Name,
		nameEnt: ev.nameEnt, ent: d.ent, pid: ev.Pid, tid: ev.Tid, argSt: d.argSt, catSet: d.catSet}
}
