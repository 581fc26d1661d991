package diagnose

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// Link classes of LinkFit.
const (
	linkIntra   = "intra-host"
	linkInter   = "inter-host"
	linkUnknown = "unknown"
)

// linkKey is one class of a communicator's transfers.
type linkKey struct {
	link string
	op   model.Op
}

// sizeTimes are the (bytes, transfer) points of one class.
type sizeTimes struct{ sizes, times []float64 }

// hostsOf maps each rank to its host name.
func hostsOf(t *model.Trace) map[int32]string {
	m := make(map[int32]string, len(t.Ranks))
	for _, r := range t.Ranks {
		m[r.Rank] = r.Host
	}
	return m
}

// linkOf classifies an instance by its members' hosts; point-to-point ops
// count as one op.
func linkOf(tm *measure.Timings, in *measure.Timing, hosts map[int32]string) linkKey {
	k := linkKey{link: linkIntra, op: in.Op}
	if in.Op.PointToPoint() {
		k.op = model.OpSendRecv
	}
	first := hosts[tm.Members[in.First].Rank]
	for _, m := range tm.Members[in.First : in.First+in.N] {
		switch h := hosts[m.Rank]; {
		case h == "" || first == "":
			return linkKey{link: linkUnknown, op: k.op}
		case h != first:
			k.link = linkInter
		}
	}
	return k
}

// linkFits fits every class, most instances first (intra-host first on a
// tie); the first is the dominant class.
func linkFits(classes map[linkKey]*sizeTimes) []result.LinkFit {
	var out []result.LinkFit
	for k, st := range classes {
		a, b := fitAlphaBeta(st.sizes, st.times)
		out = append(out, result.LinkFit{Link: k.link, Op: k.op.String(), Count: len(st.sizes), AlphaNs: a, BetaNsPerByte: b})
	}
	slices.SortFunc(out, func(a, b result.LinkFit) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Link, b.Link), cmp.Compare(a.Op, b.Op))
	})
	return out
}
