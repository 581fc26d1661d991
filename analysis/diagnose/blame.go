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
	var keys opKeys
	for i := range tm.Inst {
		in := &tm.Inst[i]
		if in.Last < 0 || in.Op.PointToPoint() || !keep(i) {
			continue
		}
		b.Ns[in.Last] += in.Lateness
		key := keys.of(in.Axis, in.Op)
		peers := b.Peers[in.Last]
		if peers == nil {
			peers = map[string]int64{}
			b.Peers[in.Last] = peers
		}
		var wait int64
		waited := false
		for _, m := range tm.Members[in.First : in.First+in.N] {
			if m.Rank != in.Last {
				wait += m.Wait
				waited = true
			}
		}
		if waited {
			peers[key] += wait
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

// opKeys builds "<axis> <op>" ("DP allreduce", the op alone for an unknown
// axis) once per axis and op.
type opKeys map[[2]uint8]string

func (k *opKeys) of(ax model.Axis, o model.Op) string {
	if s, ok := (*k)[[2]uint8{uint8(ax), uint8(o)}]; ok {
		return s
	}
	s := o.String()
	if ax != model.AxisUnknown {
		s = ax.String() + " " + s
	}
	if *k == nil {
		*k = opKeys{}
	}
	(*k)[[2]uint8{uint8(ax), uint8(o)}] = s
	return s
}
