package layout

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// streamRun is the collective kernels one rank ran on one stream that no
// metadata ties to a communicator, in start order.
type streamRun struct {
	rank int32
	sig  string  // the ops and their counts: equal on the members of one communicator
	rows []int   // event rows
	ends []int64 // their ends, own clock
}

// maxStreamMADNs bounds how far apart (median absolute deviation of the end
// differences) one communicator's members may end their collectives: they
// end together, up to the network's skew; other streams that merely run
// alike drift by the compute's jitter.
const maxStreamMADNs = 50_000

// attributeByStream ties collective kernels without a communicator (a
// kernel-only capture: Kineto copies the metadata from the CPU op, which
// is not recorded) to the communicators the trace declares
// (distributedInfo's process groups): PyTorch runs each process group's
// collectives on a CUDA stream of its own, and the members of one group
// end each collective together. Every communicator's candidate set of
// streams (one per member, with the same ops and counts) is scored by how
// closely their ends follow each other (the median absolute deviation of
// the end differences, the members' clock offsets cancelling); the closest
// are taken first, a stream once. Send/recv kernels are left to
// attributePeerless.
func attributeByStream(t *model.Trace) {
	runs := unattributedRuns(t)
	if len(runs) == 0 {
		return
	}
	var cands []claim
	for c, comm := range t.Comms {
		if len(comm.Members) >= 2 {
			cands = append(cands, claims(int32(c), comm.Members, runs)...)
		}
	}
	slices.SortStableFunc(cands, func(a, b claim) int {
		return cmp.Or(cmp.Compare(a.mad, b.mad), cmp.Compare(len(a.runs), len(b.runs)))
	})
	taken := map[*streamRun]bool{}
	for _, cl := range cands {
		if slices.ContainsFunc(cl.runs, func(r *streamRun) bool { return taken[r] }) {
			continue
		}
		for _, r := range cl.runs {
			taken[r] = true
			for _, i := range r.rows {
				t.Colls.Comm[t.Events.Coll[i]] = cl.comm
			}
		}
	}
}

// claim is one way communicator comm could take one stream of each member,
// and how far apart those streams end their collectives.
type claim struct {
	comm int32
	runs []*streamRun
	mad  int64
}

// unattributedRuns groups, per rank, the collective kernels without a
// communicator by stream.
func unattributedRuns(t *model.Trace) map[int32][]*streamRun {
	out := map[int32][]*streamRun{}
	for _, r := range t.Ranks {
		by := map[int32]*streamRun{}
		var keys []int32
		lo, hi := t.Events.RankRange(r.Rank)
		for i := t.Events.NextKind(model.KindComm, lo, hi); i < hi; i = t.Events.NextKind(model.KindComm, i+1, hi) {
			c := t.Events.Coll[i]
			if c < 0 || t.Colls.Comm[c] >= 0 || t.Colls.Op[c].PointToPoint() {
				continue
			}
			s := t.Events.Stream[i]
			if by[s] == nil {
				by[s], keys = &streamRun{rank: r.Rank}, append(keys, s)
			}
			by[s].rows = append(by[s].rows, i)
			by[s].ends = append(by[s].ends, t.Events.Start[i]+t.Events.Dur[i])
		}
		for _, s := range keys {
			by[s].sig = signature(t, by[s].rows)
			out[r.Rank] = append(out[r.Rank], by[s])
		}
	}
	return out
}

// signature is a run's ops with their counts ("all_reduce×96 …").
func signature(t *model.Trace, rows []int) string {
	count := map[model.Op]int{}
	for _, i := range rows {
		count[t.Colls.Op[t.Events.Coll[i]]]++
	}
	ops := make([]model.Op, 0, len(count))
	for op := range count {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	b := []byte{}
	for _, op := range ops {
		b = append(b, op.String()...)
		b = append(b, '×')
		b = append(b, []byte(itoa(count[op]))...)
		b = append(b, ' ')
	}
	return string(b)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// claims lists, for each stream of the first member, the streams of the
// other members with its ops and counts that follow it most closely; those
// under maxStreamMADNs.
func claims(c int32, members []int32, runs map[int32][]*streamRun) []claim {
	var out []claim
	for _, first := range runs[members[0]] {
		cl := claim{comm: c, runs: []*streamRun{first}}
		for _, m := range members[1:] {
			r, mad := closest(first, runs[m])
			if r == nil {
				cl.runs = nil
				break
			}
			cl.runs, cl.mad = append(cl.runs, r), max(cl.mad, mad)
		}
		if cl.runs != nil && cl.mad <= maxStreamMADNs {
			out = append(out, cl)
		}
	}
	return out
}

// closest is the run among cands with first's signature whose ends follow
// first's most closely, and that deviation.
func closest(first *streamRun, cands []*streamRun) (*streamRun, int64) {
	var best *streamRun
	bestMAD := int64(1 << 62)
	for _, r := range cands {
		if r.sig != first.sig || len(r.ends) != len(first.ends) {
			continue
		}
		if mad := endMAD(first.ends, r.ends); mad < bestMAD {
			best, bestMAD = r, mad
		}
	}
	return best, bestMAD
}

// endMAD is the median absolute deviation of b[i] − a[i] from its median.
func endMAD(a, b []int64) int64 {
	d := make([]int64, len(a))
	for i := range a {
		d[i] = b[i] - a[i]
	}
	slices.Sort(d)
	med := d[len(d)/2]
	for i := range d {
		d[i] = max(d[i]-med, med-d[i])
	}
	slices.Sort(d)
	return d[len(d)/2]
}
