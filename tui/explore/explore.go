// Package explore builds the TUI's per-event data (tui/events) from a trace
// and its analysis: it moves each rank's GPU events onto the aligned clock
// and lists every timed collective with its members. It is the bridge that
// keeps package tui free of ingest and analysis.
package explore

import (
	"slices"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/tui/events"
)

// Build returns the events of t on the aligned clock of d.
func Build(t *model.Trace, d *analysis.Detail) *events.Data {
	out := &events.Data{Steps: d.Timelines, Names: t.Names.All()}
	for _, s := range t.Streams {
		out.Streams = append(out.Streams, s.Name)
	}
	idx := lanes(t, d, out)
	colls(t, d, out, idx)
	return out
}

// lanes fills one lane per rank and returns each trace event's index in
// its lane (-1 for events not kept).
func lanes(t *model.Trace, d *analysis.Detail, out *events.Data) []int32 {
	ev := &t.Events
	idx := make([]int32, ev.Len())
	for _, rk := range t.Ranks {
		lane := events.Lane{Rank: int(rk.Rank), Stage: d.Stage[rk.Rank]}
		off := d.Offsets.Of(rk.Rank)
		lo, hi := ev.RankRange(rk.Rank)
		for i := lo; i < hi; i++ {
			idx[i] = -1
			if !ev.Kind[i].OnGPU() || ev.Kind[i] == model.KindGPUAnnotation {
				continue
			}
			idx[i] = int32(lane.Len())
			lane.Add(ev.Start[i]-off, ev.Dur[i], ev.Name[i], ev.Stream[i], events.KindOf(ev.Kind[i].String()), ev.Iter[i], ev.Micro[i], -1)
		}
		out.Lanes = append(out.Lanes, lane)
	}
	slices.SortFunc(out.Lanes, func(a, b events.Lane) int { return a.Rank - b.Rank })
	return idx
}

// colls lists every timed instance and links its members' events to it.
func colls(t *model.Trace, d *analysis.Detail, out *events.Data, idx []int32) {
	tm := &d.Timings
	for _, in := range tm.Inst {
		c := events.Coll{Comm: commID(t, in.Comm), Desc: commDesc(t, in.Comm), Axis: in.Axis.String(), Op: in.Op.String(), Bytes: in.Bytes}
		for _, m := range tm.Members[in.First : in.First+in.N] {
			e := idx[m.Event]
			if e < 0 {
				continue
			}
			lane := out.Lane(int(m.Rank))
			lane.Coll[e] = int32(len(out.Colls))
			c.Members = append(c.Members, events.Member{Rank: int(m.Rank), Event: int(e), ArrivalNs: lane.Start[e], WaitNs: m.Wait, TransferNs: m.Transfer})
		}
		out.Colls = append(out.Colls, c)
	}
}

func commDesc(t *model.Trace, c int32) string {
	if c < 0 || int(c) >= len(t.Comms) {
		return ""
	}
	return t.Comms[c].Desc
}

func commID(t *model.Trace, c int32) string {
	if c < 0 || int(c) >= len(t.Comms) {
		return "?"
	}
	return t.Comms[c].ID
}
