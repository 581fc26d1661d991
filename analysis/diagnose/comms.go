package diagnose

import (
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// maxPoints bounds the size/time samples kept per communicator.
const maxPoints = 256

// commAcc accumulates one communicator's instances.
type commAcc struct {
	count        int
	time, bytes  int64
	sizes, times []float64
	links        map[linkKey]*sizeTimes
}

// Comms summarizes every communicator over the kept instances (keep(i) for
// instance i of tm), per step,
// with an α-β fit of transfer time against message size (seed §6.10).
func Comms(t *model.Trace, tm *measure.Timings, steps int, keep func(i int) bool) []result.CommStats {
	acc := make([]commAcc, len(t.Comms))
	hosts := hostsOf(t)
	for i := range tm.Inst {
		in := &tm.Inst[i]
		if in.Comm < 0 || int(in.Comm) >= len(acc) || !keep(i) {
			continue
		}
		acc[in.Comm].add(t, tm, in, linkOf(tm, in, hosts))
	}
	steps = max(steps, 1)
	var out []result.CommStats
	for c := range t.Comms {
		if acc[c].count > 0 {
			out = append(out, acc[c].stats(t, c, steps))
		}
	}
	return out
}

func (a *commAcc) add(t *model.Trace, tm *measure.Timings, in *measure.Timing, lk linkKey) {
	a.count++
	var sum int64
	for _, m := range tm.Members[in.First : in.First+in.N] {
		sum += t.Events.Dur[m.Event]
	}
	a.time += sum / int64(max(in.N, 1))
	if in.Bytes >= 0 {
		a.bytes += in.Bytes
		a.sizes = append(a.sizes, float64(in.Bytes))
		a.times = append(a.times, float64(in.Transfer))
		if a.links == nil {
			a.links = map[linkKey]*sizeTimes{}
		}
		if a.links[lk] == nil {
			a.links[lk] = &sizeTimes{}
		}
		st := a.links[lk]
		st.sizes, st.times = append(st.sizes, float64(in.Bytes)), append(st.times, float64(in.Transfer))
	}
}

func (a *commAcc) stats(t *model.Trace, c, steps int) result.CommStats {
	cm := t.Comms[c]
	s := result.CommStats{ID: cm.ID, Name: cm.Name, Axis: cm.Axis.String(), AxisBy: cm.AxisBy.String(),
		Count: a.count / steps, TimeNs: a.time / int64(steps), Bytes: a.bytes / int64(steps)}
	hosts := map[string]bool{}
	for _, r := range cm.Members {
		s.Members = append(s.Members, int(r))
		if i := t.FindRank(r); i >= 0 {
			hosts[t.Ranks[i].Host] = true
		}
	}
	s.Hosts = len(hosts)
	s.Links = linkFits(a.links)
	if len(s.Links) > 0 {
		s.AlphaNs, s.BetaNsPerByte = s.Links[0].AlphaNs, s.Links[0].BetaNsPerByte
	}
	stride := max(1, len(a.sizes)/maxPoints)
	for i := 0; i < len(a.sizes); i += stride {
		s.Points = append(s.Points, result.SizeTime{Bytes: int64(a.sizes[i]), TimeNs: int64(a.times[i])})
	}
	return s
}
