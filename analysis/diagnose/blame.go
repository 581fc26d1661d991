package diagnose

import (
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/model"
)

// Blame is, per rank and per step, how long it held collectives back when
// it arrived last: Ns sums the instances' lateness (latest start − second
// latest); Peers sums the waits of the other members, per "AXIS op".
type Blame struct {
	Ns    map[int32]int64
	Peers map[int32]map[string]int64
}

// BlameOf sums blame over the instances i of tm for which keep(i) (those inside
// analysed steps) and divides by steps.
func BlameOf(tm *measure.Timings, steps int, keep func(i int) bool) Blame {
	b := Blame{Ns: map[int32]int64{}, Peers: map[int32]map[string]int64{}}
	for i := range tm.Inst {
		in := &tm.Inst[i]
		if in.Last < 0 || in.Op.PointToPoint() || !keep(i) {
			continue
		}
		b.Ns[in.Last] += in.Lateness
		key := in.Axis.String() + " " + in.Op.String()
		if in.Axis == model.AxisUnknown {
			key = in.Op.String()
		}
		if b.Peers[in.Last] == nil {
			b.Peers[in.Last] = map[string]int64{}
		}
		for _, m := range tm.Members[in.First : in.First+in.N] {
			if m.Rank != in.Last {
				b.Peers[in.Last][key] += m.Wait
			}
		}
	}
	if steps > 1 {
		b.scale(int64(steps))
	}
	return b
}

func (b Blame) scale(n int64) {
	for r := range b.Ns {
		b.Ns[r] /= n
	}
	for _, m := range b.Peers {
		for k := range m {
			m[k] /= n
		}
	}
}
