package measure

import (
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// NAxes is the number of model.Axis values; per-axis figures are arrays
// indexed by model.Axis.
const NAxes = int(model.AxisA2A) + 1

// Activity is one rank's GPU activity over the whole trace, on its own
// clock: one Set per class of GPU event.
type Activity struct {
	Rank    int32
	Compute Set
	Comm    [NAxes]Set // per axis; unknown-axis communication is under AxisUnknown
	Memcpy  Set        // memcpy and memset
	All     Set        // every GPU event
	Busy    Set        // compute and every non-PP communication: what is not bubble
	// Transfer is, per axis, the part of Comm after each kernel's last
	// member arrived (SplitWaits); the rest of Comm is waiting. Without
	// SplitWaits it is empty and every figure that uses it is 0.
	Transfer [NAxes]Set
}

// RankActivity builds rank r's activity from its events. Events must be sorted.
func RankActivity(t *model.Trace, r int32) Activity {
	lo, hi := t.Events.RankRange(r)
	ev := &t.Events
	nComp, nComm, nMem := 0, 0, 0 // sized first: one allocation per class
	for _, k := range ev.Kind[lo:hi] {
		switch k {
		case model.KindCompute:
			nComp++
		case model.KindComm:
			nComm++
		case model.KindMemcpy, model.KindMemset:
			nMem++
		}
	}
	comp, mem, all := make([]Interval, 0, nComp), make([]Interval, 0, nMem), make([]Interval, 0, nComp+nComm+nMem)
	var comm [NAxes][]Interval
	for i := lo; i < hi; i++ {
		iv := Interval{ev.Start[i], ev.Start[i] + ev.Dur[i]}
		switch ev.Kind[i] {
		case model.KindCompute:
			comp = append(comp, iv)
		case model.KindComm:
			a := AxisOf(t, i)
			comm[a] = append(comm[a], iv)
		case model.KindMemcpy, model.KindMemset:
			mem = append(mem, iv)
		default:
			continue
		}
		all = append(all, iv)
	}
	return newActivity(r, comp, mem, all, comm)
}

func newActivity(r int32, comp, mem, all []Interval, comm [NAxes][]Interval) Activity {
	a := Activity{Rank: r, Compute: kept(Normalize(comp)), Memcpy: kept(Normalize(mem)), All: kept(Normalize(all))}
	a.Busy = a.Compute
	for ax := range comm {
		a.Comm[ax] = kept(Normalize(comm[ax]))
		if model.Axis(ax) != model.AxisPP {
			a.Busy = Union(a.Busy, a.Comm[ax])
		}
	}
	a.Busy = kept(a.Busy)
	return a
}

// kept is s in an array of its own length: an Activity outlives its rank's
// events (the analysis keeps one per rank, docs/memory.md), and the arrays
// Normalize and Union return are as long as their inputs.
func kept(s Set) Set {
	if cap(s) == len(s) {
		return s
	}
	return slices.Clone(s)
}

// AxisOf returns the axis of communication event i: its communicator's
// axis; for a point-to-point kernel whose communicator is unknown or
// unlabelled, PP (pipeline send/recv is the only p2p traffic of TP/PP/DP
// training); else AxisUnknown.
func AxisOf(t *model.Trace, i int) model.Axis {
	c := t.Events.Coll[i]
	if c >= 0 && int(c) < t.Colls.Len() {
		if cm := t.Colls.Comm[c]; cm >= 0 && int(cm) < len(t.Comms) && t.Comms[cm].Axis != model.AxisUnknown {
			return t.Comms[cm].Axis
		}
		if t.Colls.Op[c].PointToPoint() {
			return model.AxisPP
		}
		return model.AxisUnknown
	}
	if strings.Contains(t.Name(i), "SendRecv") {
		return model.AxisPP
	}
	return model.AxisUnknown
}

// Figures are one rank's figures in one step window (docs/semantics.md).
type Figures struct {
	Window  Interval // own clock
	Compute int64
	Comm    [NAxes]int64
	Exposed [NAxes]int64
	// ExposedTransfer is the part of Exposed after the last member arrived:
	// |∪ transfer parts − ∪ compute|; Exposed − ExposedTransfer is waiting.
	ExposedTransfer [NAxes]int64
	// BubblePPWait and BubblePPTransfer are the parts of the bubble during
	// which a PP kernel waits for its neighbour, and transfers.
	BubblePPWait, BubblePPTransfer int64
	Memcpy                         int64
	Idle                           int64
	Bubble                         int64
	Bubbles                        Set // the bubble intervals, own clock
}

// Measure returns the figures of the window w.
func (a *Activity) Measure(w Interval) Figures {
	f := Figures{Window: w, Compute: a.Compute.ClipLen(w.Start, w.End), Memcpy: a.Memcpy.ClipLen(w.Start, w.End)}
	comp := a.Compute.Clip(w.Start, w.End)
	for ax := range a.Comm {
		c := a.Comm[ax].Clip(w.Start, w.End)
		f.Comm[ax] = c.Len()
		f.Exposed[ax] = c.Len() - IntersectLen(c, comp)
		x := a.Transfer[ax].Clip(w.Start, w.End)
		f.ExposedTransfer[ax] = x.Len() - IntersectLen(x, comp)
	}
	f.Idle = w.Len() - a.All.ClipLen(w.Start, w.End)
	f.Bubbles = Subtract(Set{w}, a.Busy.Clip(w.Start, w.End))
	f.Bubble = f.Bubbles.Len()
	pp := model.AxisPP
	f.BubblePPTransfer = IntersectLen(a.Transfer[pp].Clip(w.Start, w.End), f.Bubbles)
	f.BubblePPWait = IntersectLen(a.Comm[pp].Clip(w.Start, w.End), f.Bubbles) - f.BubblePPTransfer
	return f
}
