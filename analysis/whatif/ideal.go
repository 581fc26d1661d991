package whatif

import "slices"

// commTypes are the op types whose ideal is a median (communications);
// the others (computes, gc, optimizer) take the mean.
var commTypes = map[string]bool{
	FwdSend: true, FwdRecv: true, BwdSend: true, BwdRecv: true,
	ParamsAG: true, GradsRS: true, SeparateAR: true,
	LayernormAR: true, EmbeddingAR: true, Clip: true,
}

// isComm reports whether op type name is a communication of the op-table form.
func isComm(name string) bool { return commTypes[name] }

// Ideal returns the ideal inputs (whatif.md §3): per op type over every
// step, replica and stage, the mean duration of compute-like ops and the
// median transfer of group members (the median duration of communications
// outside groups); no launch delays.
func (g *Graph) Ideal() Times {
	nt := len(g.Types)
	durs, xfers := make([][]float64, nt), make([][]float64, nt)
	for i, ty := range g.Type {
		if g.Group[i] >= 0 {
			xfers[ty] = append(xfers[ty], g.Xfer[i])
		} else {
			durs[ty] = append(durs[ty], g.Dur[i])
		}
	}
	idur, ixfer := make([]float64, nt), make([]float64, nt)
	for ty := range nt {
		ixfer[ty] = median(xfers[ty])
		if g.Comm[ty] {
			idur[ty] = median(durs[ty])
		} else {
			idur[ty] = mean(durs[ty])
		}
	}
	t := Times{Dur: make([]float64, g.Len()), Xfer: make([]float64, g.Len()), Delay: make([]float64, g.Len())}
	for i, ty := range g.Type {
		t.Dur[i], t.Xfer[i] = idur[ty], ixfer[ty]
	}
	return t
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Blend returns base with the durations and transfers of the ops sel picks
// taken from alt; delays stay base's.
func Blend(base, alt Times, sel func(i int) bool) Times {
	out := Times{Dur: slices.Clone(base.Dur), Xfer: slices.Clone(base.Xfer), Delay: base.Delay, Solo: base.Solo}
	for i := range out.Dur {
		if sel(i) {
			out.Dur[i], out.Xfer[i] = alt.Dur[i], alt.Xfer[i]
		}
	}
	return out
}
