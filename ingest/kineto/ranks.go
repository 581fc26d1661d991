package kineto

import (
	"encoding/binary"
	"slices"
	"sync"
)

// rankIntern holds one copy of each distinct rank list (by content) for
// all the files of a read: every file states the world group and its other
// process groups, so without it the lists cost ranks² bytes. Lists it
// returns are shared between files and must not be modified in place.
type rankIntern struct {
	mu    sync.Mutex
	lists map[string][]int32 // little-endian bytes of the list -> the list
	key   []byte
}

func newRankIntern() *rankIntern { return &rankIntern{lists: map[string][]int32{}} }

// get returns the shared copy of the sorted list r (r itself the first time).
func (t *rankIntern) get(r []int32) []int32 {
	if r == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.key = t.key[:0]
	for _, x := range r {
		t.key = binary.LittleEndian.AppendUint32(t.key, uint32(x))
	}
	if s, ok := t.lists[string(t.key)]; ok {
		return s
	}
	t.lists[string(t.key)] = r
	return r
}

// union returns the shared copy of the sorted union of a and b; a is
// returned as it is when b adds nothing to it.
func (t *rankIntern) union(a, b []int32) []int32 {
	if a != nil && subsetOf(b, a) {
		return a
	}
	return t.get(union(a, b))
}

// subsetOf reports whether every rank of b is in the sorted list a.
func subsetOf(b, a []int32) bool {
	for _, r := range b {
		if _, ok := slices.BinarySearch(a, r); !ok {
			return false
		}
	}
	return true
}
