package model

import (
	"slices"
	"testing"
)

// AddComm unions members; a group added again with ranks it already holds
// keeps its array (a merge adds every file's copy of the world group), and
// the caller's list is never the trace's.
func TestAddCommUnionKeepsArray(t *testing.T) {
	var tr Trace
	given := []int32{3, 1}
	c := tr.AddComm(Communicator{ID: "w", Members: given})
	first := tr.Comms[c].Members
	if !slices.Equal(first, []int32{1, 3}) || &first[0] == &given[0] {
		t.Fatalf("members %v (given %v)", first, given)
	}
	tr.AddComm(Communicator{ID: "w", Members: []int32{3}})
	if m := tr.Comms[c].Members; &m[0] != &first[0] || len(m) != 2 {
		t.Errorf("subset re-add changed the array: %v", m)
	}
	tr.AddComm(Communicator{ID: "w", Members: []int32{2, 0}})
	if m := tr.Comms[c].Members; !slices.Equal(m, []int32{0, 1, 2, 3}) || !slices.Equal(first, []int32{1, 3}) {
		t.Errorf("members %v, first array now %v", m, first)
	}
}
