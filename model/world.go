package model

import (
	"cmp"
	"slices"
)

// MaxWorld is the largest job size a declaration may state; larger values
// are corrupt metadata and are not recorded.
const MaxWorld = 1 << 20

// Where a world size was read (WorldDecl.By).
const (
	// WorldByKineto is Kineto's distributedInfo.world_size.
	WorldByKineto = "distributedInfo.world_size"
	// WorldByEnv is the launcher's environment (WORLD_SIZE) captured in an nsys report.
	WorldByEnv = "WORLD_SIZE"
	// WorldByNCCL is the size of the largest NCCL communicator a report
	// initialised (the "No. of ranks" of NCCL's NVTX payloads): a lower
	// bound of the job's size.
	WorldByNCCL = "NCCL No. of ranks (largest communicator)"
)

// WorldDecl is a job size the inputs state: how many ranks the job has,
// whether or not a trace of each of them was read. Analysis compares it
// with the ranks read to name the missing ones.
type WorldDecl struct {
	Size  int32  // ranks declared; global ranks are 0..Size-1
	By    string // where it was read: WorldByKineto, WorldByEnv, WorldByNCCL
	Count int32  // how many input files state it
}

// DeclareWorld records that count input files state a job of size ranks by
// way of by. Equal declarations add up; sizes outside 1..MaxWorld are
// ignored. World stays sorted by By, then Size.
func (t *Trace) DeclareWorld(size int32, by string, count int32) {
	if size < 1 || size > MaxWorld || count < 1 {
		return
	}
	key := func(d WorldDecl, k WorldDecl) int {
		return cmp.Or(cmp.Compare(d.By, k.By), cmp.Compare(d.Size, k.Size))
	}
	d := WorldDecl{Size: size, By: by, Count: count}
	i, ok := slices.BinarySearchFunc(t.World, d, key)
	if ok {
		t.World[i].Count += count
		return
	}
	t.World = slices.Insert(t.World, i, d)
}

// DeclaredWorld is the largest size the inputs declare, 0 when none does.
func (t *Trace) DeclaredWorld() int32 {
	var n int32
	for _, d := range t.World {
		n = max(n, d.Size)
	}
	return n
}

// AbsentMembers are ranks a communicator's description lists (Kineto's
// distributedInfo.pg_config) that no input holds a trace of. Readers drop
// them from Communicator.Members, which names only ranks the trace has,
// and keep them here so that analysis can name the missing ranks.
type AbsentMembers struct {
	Comm  string  // Communicator.ID
	Ranks []int32 // ascending
}

// AddAbsent records ranks of communicator comm that have no trace,
// unioned with those already recorded for it.
func (t *Trace) AddAbsent(comm string, ranks []int32) {
	if len(ranks) == 0 {
		return
	}
	for i := range t.Absent {
		if t.Absent[i].Comm == comm {
			t.Absent[i].Ranks = unionSorted(t.Absent[i].Ranks, ranks)
			return
		}
	}
	t.Absent = append(t.Absent, AbsentMembers{Comm: comm, Ranks: unionSorted(nil, ranks)})
}
