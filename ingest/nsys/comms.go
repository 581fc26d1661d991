package nsys

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// commTable is what all reports together say about each NCCL communicator.
type commTable struct {
	byRank  map[uint64]map[int32]int32 // comm -> rank within it -> global rank (from comm init payloads)
	nranks  map[uint64]int32
	users   map[uint64]map[int32]bool // comm -> global ranks whose kernels used it
	present map[int32]bool            // global ranks read
	ordered map[uint64]bool           // comm without creation payloads whose peers read as members in ascending order
	memo    map[uint64][]int32        // members, worked out once per communicator (read-only)
}

// resolveComms rebuilds communicators across reports from the communicator
// ids in NCCL's payloads and the ranks inside them, then fills each
// collective's communicator, group size and global peer rank.
func resolveComms(bs []*builder, opts source.Options) {
	ct := buildCommTable(bs)
	ct.ordered = orderedComms(ct, collsOf(bs))
	for _, b := range bs {
		applyComms(b.tr, b.colls, ct)
		b.noteMissingComms(opts)
	}
}

func collsOf(bs []*builder) [][]pendColl {
	out := make([][]pendColl, len(bs))
	for i, b := range bs {
		out[i] = b.colls
	}
	return out
}

func newCommTable() commTable {
	return commTable{byRank: map[uint64]map[int32]int32{}, nranks: map[uint64]int32{}, users: map[uint64]map[int32]bool{}, present: map[int32]bool{},
		memo: map[uint64][]int32{}}
}

func buildCommTable(bs []*builder) commTable {
	ct := newCommTable()
	for _, b := range bs {
		for _, r := range b.tr.Ranks {
			ct.present[r.Rank] = true
		}
		pidRank := map[int64]int32{}
		for _, r := range b.tr.Ranks {
			pidRank[r.PID] = r.Rank
		}
		for _, in := range b.inits {
			g, ok := pidRank[int64(in.pid)]
			if !in.p.hasComm || !ok || in.p.rank < 0 {
				continue
			}
			ct.member(in.p.comm)[in.p.rank] = g
			ct.nranks[in.p.comm] = in.p.nranks
		}
		for _, pc := range b.colls {
			if pc.hasComm {
				ct.user(pc.comm)[pc.rank] = true
			}
		}
	}
	return ct
}

func (ct commTable) member(c uint64) map[int32]int32 {
	if ct.byRank[c] == nil {
		ct.byRank[c] = map[int32]int32{}
	}
	return ct.byRank[c]
}

func (ct commTable) user(c uint64) map[int32]bool {
	if ct.users[c] == nil {
		ct.users[c] = map[int32]bool{}
	}
	return ct.users[c]
}

// members are the global ranks of comm that were read, ascending; the
// table is complete when it is first asked, and the list is shared.
func (ct commTable) members(c uint64) []int32 {
	if m, ok := ct.memo[c]; ok {
		return m
	}
	set := map[int32]bool{}
	for _, g := range ct.byRank[c] {
		set[g] = true
	}
	for g := range ct.users[c] {
		set[g] = true
	}
	var out []int32
	for g := range set {
		if ct.present[g] {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	ct.memo[c] = out
	return out
}

// applyComms gives the collectives of tr their communicator (with its
// members), group size and global peer. Each communicator is added once
// (adding it again, with the same members, changed nothing).
func applyComms(tr *model.Trace, colls []pendColl, ct commTable) {
	added := map[uint64]int32{}
	for _, pc := range colls {
		if !pc.hasComm {
			continue
		}
		members := ct.members(pc.comm)
		idx, ok := added[pc.comm]
		if !ok {
			idx = tr.AddComm(model.Communicator{ID: commID(pc.comm), Members: members})
			added[pc.comm] = idx
		}
		c := &tr.Colls
		c.Comm[pc.coll] = idx
		if n, ok := ct.nranks[pc.comm]; ok {
			c.GroupSize[pc.coll] = n
		}
		c.Peer[pc.coll] = ct.peer(pc, members)
	}
}

// peer maps a payload's peer (a rank within the communicator) to a global
// rank; a two-member communicator's peer is the other member.
func (ct commTable) peer(pc pendColl, members []int32) int32 {
	if pc.peer < 0 {
		return -1
	}
	if g, ok := ct.byRank[pc.comm][pc.peer]; ok {
		return g
	}
	if len(members) == 2 {
		return members[0] + members[1] - pc.rank
	}
	if ct.ordered[pc.comm] {
		return members[pc.peer]
	}
	return -1
}

// orderedComms finds the communicators without creation payloads (a
// capture started after NCCL's init) whose p2p peers can be read as the
// members in ascending global order: PyTorch numbers a group's ranks so
// and passes the global rank as ncclCommSplit's key. It holds when every
// peer index of the communicator's payloads falls inside its members and
// names another rank than the caller.
func orderedComms(ct commTable, colls [][]pendColl) map[uint64]bool {
	ok := map[uint64]bool{}
	members := map[uint64][]int32{}
	for _, cs := range colls {
		for _, pc := range cs {
			if !pc.hasComm || pc.peer < 0 || len(ct.byRank[pc.comm]) > 0 {
				continue
			}
			m, seen := members[pc.comm]
			if !seen {
				m = ct.members(pc.comm)
				members[pc.comm] = m
			}
			good := int(pc.peer) < len(m) && m[pc.peer] != pc.rank
			if v, seen := ok[pc.comm]; !seen || v {
				ok[pc.comm] = good
			}
		}
	}
	return ok
}

// commID is the communicator key: NCCL's commHash as ingest/nccl keys it.
func commID(c uint64) string { return fmt.Sprintf("nccl:0x%x", c) }

// noteMissingComms says, in the trace and as a warning, when NCCL kernels
// could not be tied to a communicator.
func (b *builder) noteMissingComms(opts source.Options) {
	n := int64(0)
	for _, pc := range b.colls {
		if !pc.hasComm {
			n++
		}
	}
	if n == 0 {
		return
	}
	why := "no NCCL NVTX ranges (NVTX not traced, or NCCL_NVTX_DISABLE=1)"
	if b.hasNCCLPayload() {
		why = "NCCL payloads carry no communicator id (NCCL < 2.25)"
	}
	reason := fmt.Sprintf("communicator of nccl kernels unknown: %s; inferred by the analysis", why)
	b.tr.Skipped = append(b.tr.Skipped, model.Skip{Source: b.path, Offset: -1, Reason: reason, Count: n})
	warn(opts, "%s: %d NCCL kernels: %s", b.path, n, reason)
}

func (b *builder) hasNCCLPayload() bool {
	for _, r := range b.nccl {
		if r.payload != "" {
			return true
		}
	}
	return false
}
