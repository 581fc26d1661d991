package kineto

import (
	"encoding/binary"
)

// Learned member runs: the decoder's fast path between two values.
//
// A writer lays out every event alike, so the bytes between one value and
// the next (`, "cat": `, `,\n    "ts": `, `\n  }`) repeat from event to
// event. When the member loop has read such a run the slow way (white
// space, the comma, the key, its match, the colon) it remembers its bytes
// and what they meant (the key's id, or the object's end) under the state
// it was read in; the next time that state comes, the bytes are compared
// with the run (four 64-bit words, masked) and, when they are equal, taken
// as they were the first time. Equal bytes in the same context parse the
// same way, so this changes no result, error or offset: a state only
// predicts which run to compare, and a run is compared only in the context
// (object kind, first member or not) it was read in.

// runBytes is the longest run remembered.
const runBytes = 32

// The states of one object kind: below firstStates "before the first
// member" (the event's is 0; its args' come from the event's name,
// strEntry.run), the others "after a member", by a hash of the path of
// runs read since the object's start; noRun (after a run too long to
// remember) is never learnt in, so it predicts nothing. Each state
// remembers two runs, the last learnt first.
const (
	numStates            = 1024
	firstStates          = 64
	noRun       runState = numStates - 1
)

// runState is a state of the member loop (below numStates). There are many
// more than a file's layouts need, so that the paths of different layouts
// (one an object kind and category) seldom meet in one state and evict
// each other's runs.
type runState uint16

// memberRun is one remembered run.
type memberRun struct {
	w    [4]uint64 // its bytes, little-endian, zero past n
	m    [4]uint64 // the mask of its bytes
	n    int       // its length (0: no run)
	next runState  // the state after it
	id   keyID     // the member's key
	end  bool      // the run closes the object (its last byte is '}')
}

// runTable is the runs of one object kind, two a state.
type runTable [numStates][2]memberRun

// memberRuns are the runs of the event objects and of their args.
type memberRuns [2]runTable

// learn remembers run (its bytes, its key or the end) for state st of
// its kind and returns the state after it.
func (t *runTable) learn(run []byte, st runState, id keyID, end bool) runState {
	n := len(run)
	if n > runBytes || n == 0 || st == noRun {
		return noRun
	}
	var p [runBytes]byte
	copy(p[:], run)
	e := memberRun{n: n, id: id, end: end}
	h := uint64(st)<<8 | uint64(n)
	for j := range e.w {
		e.w[j] = binary.LittleEndian.Uint64(p[8*j:])
		switch k := n - 8*j; {
		case k >= 8:
			e.m[j] = ^uint64(0)
		case k > 0:
			e.m[j] = 1<<(8*k) - 1
		}
		h = (h ^ e.w[j]) * 0x9E3779B97F4A7C15
	}
	e.next = firstStates + runState((h>>32)%uint64(noRun-firstStates)) // firstStates .. noRun-1
	ways := &t[st]
	ways[1], ways[0] = ways[0], e
	return e.next
}
