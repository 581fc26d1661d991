package clock

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// A loose kernel is a send or recv whose peer is unknown on a communicator
// of more than two members (a pipeline group whose kernels carry the process
// group but neither "Seq" nor a peer): its partner is found by its end.
type loose struct {
	ev    int32
	end   int64 // on the rank's own clock
	bytes int64 // -1 when unknown
}

// looseKey is one rank's sends (or recvs) on one communicator.
type looseKey struct {
	comm, rank int32
	recv       bool
}

// looseSet holds the loose kernels of every rank, each list in end order,
// and how far apart the ends of a pair may be (see pairWindow).
type looseSet struct {
	lists  map[looseKey][]loose
	window int64
}

// isLoose reports whether kernel i is a send/recv that p2pKey cannot pair:
// no recorded peer and more than two members to choose from.
func isLoose(t *model.Trace, i int, comm int32, op model.Op) bool {
	if op != model.OpSend && op != model.OpRecv {
		return false
	}
	return t.Colls.Peer[t.Events.Coll[i]] < 0 && len(t.Comms[comm].Members) != 2
}

func (s *looseSet) add(t *model.Trace, i int, comm int32, op model.Op) {
	ev := &t.Events
	k := looseKey{comm: comm, rank: ev.Rank[i], recv: op == model.OpRecv}
	if s.lists == nil {
		s.lists = map[looseKey][]loose{}
	}
	s.lists[k] = append(s.lists[k], loose{ev: int32(i), end: ev.Start[i] + ev.Dur[i], bytes: t.Colls.Bytes[ev.Coll[i]]})
}

// pairLoose pairs the loose kernels of each communicator by their common
// end (see pairComm) and returns the pairs as two-member instances; the
// kernels left over count as NoPeer. inst are the instances matched
// otherwise, whose ends tell how closely ends agree (pairWindow).
func pairLoose(t *model.Trace, s *looseSet, inst []Instance, st *Stats) []Instance {
	if len(s.lists) == 0 {
		return nil
	}
	s.window = pairWindow(t, inst)
	var out []Instance
	for _, comm := range s.comms() {
		out = append(out, s.pairComm(t, comm)...)
	}
	for _, l := range s.lists {
		st.NoPeer += len(l)
	}
	st.ByEnd = 2 * len(out)
	return out
}

// comms lists the communicators with loose kernels, in order.
func (s *looseSet) comms() []int32 {
	var out []int32
	for k := range s.lists {
		if !slices.Contains(out, k.comm) {
			out = append(out, k.comm)
		}
	}
	slices.Sort(out)
	return out
}

// ranks lists the ranks with loose kernels on comm, in order.
func (s *looseSet) ranks(comm int32) []int32 {
	var out []int32
	for k, l := range s.lists {
		if k.comm == comm && len(l) > 0 && !slices.Contains(out, k.rank) {
			out = append(out, k.rank)
		}
	}
	slices.Sort(out)
	return out
}

// pairComm pairs comm's loose kernels one pair of ranks at a time, the
// pair with the strongest common-end signal first (see bestPair): a kernel
// has one partner, so the kernels a true pair takes are no longer there to
// make a spurious one (stage 0's sends to stage 1 and stage 2's receives
// from stage 1 are a steady stage-1 forward apart) look strong.
func (s *looseSet) pairComm(t *model.Trace, comm int32) []Instance {
	var out []Instance
	if len(s.ranks(comm)) > maxLooseMembers {
		return nil
	}
	known := map[[2]int32]candidate{}
	for {
		c, ok := s.bestPair(comm, known)
		if !ok {
			return out
		}
		pairs := s.take(t, comm, c)
		forget(known, c.a, c.b)
		if len(pairs) == 0 { // cannot happen: the densest window holds a pair
			return out
		}
		out = append(out, pairs...)
	}
}

// forget drops the candidates of the pairs that a or b is in: their lists
// changed.
func forget(known map[[2]int32]candidate, a, b int32) {
	for k := range known {
		if k[0] == a || k[1] == a || k[0] == b || k[1] == b {
			delete(known, k)
		}
	}
}

// take removes the kernels that pair up between c.a and c.b under the
// offset c.d and returns them as instances: a's sends with b's receives and
// b's sends with a's receives.
func (s *looseSet) take(t *model.Trace, comm int32, c candidate) []Instance {
	ab := s.pairUp(looseKey{comm, c.a, false}, looseKey{comm, c.b, true}, c.d)
	ba := s.pairUp(looseKey{comm, c.b, false}, looseKey{comm, c.a, true}, -c.d)
	out := make([]Instance, 0, len(ab)+len(ba))
	for _, p := range append(ab, ba...) {
		lo, hi := p[0], p[1]
		if t.Events.Rank[lo] > t.Events.Rank[hi] {
			lo, hi = hi, lo
		}
		out = append(out, Instance{Comm: comm, Seq: int64(len(out)), Op: t.Colls.Op[t.Events.Coll[lo]], Events: []int32{lo, hi}})
	}
	return out
}

// pairWindow is how far apart, after the pair's offset, the ends of a send
// and its receive may be: four times the median deviation of the matched
// collectives' end differences from their pair's median (about the end
// skew when members end a uniform draw after the common end), at least
// minPairWindowNs; minPairWindowNs alone when nothing else matched.
func pairWindow(t *model.Trace, inst []Instance) int64 {
	var dev []int64
	_, lists := pairDiffs(t, inst)
	for _, d := range lists {
		m := median(d)
		for _, x := range d {
			dev = append(dev, max(x-m, m-x))
		}
	}
	return max(minPairWindowNs, 4*median(dev))
}
