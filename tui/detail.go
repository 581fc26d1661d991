package tui

import (
	"fmt"
	"slices"
	"sort"

	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/tui/events"
)

// nearest is the event of the selected lane nearest the window's middle.
func (t *timeline) nearest() int {
	lane := t.lane()
	if lane == nil || lane.Len() == 0 {
		return -1
	}
	mid := t.from + t.span/2
	i := sort.Search(lane.Len(), func(i int) bool { return lane.Start[i] >= mid })
	if i > 0 && (i == lane.Len() || mid-lane.Start[i-1]-lane.Dur[i-1] < lane.Start[i]-mid) {
		i--
	}
	return i
}

// moveEvent selects the d-th next event of the lane and pans to it.
func (t *timeline) moveEvent(d int) {
	lane := t.lane()
	if lane == nil || lane.Len() == 0 {
		return
	}
	t.ev = min(max(t.ev+d, 0), lane.Len()-1)
	t.show(lane, t.ev)
}

// show pans (never zooms) so that event i is in the window.
func (t *timeline) show(lane *events.Lane, i int) {
	a, b := lane.Start[i], lane.Start[i]+lane.Dur[i]
	if a < t.from || b > t.from+t.span {
		t.from = a - t.span/4
		t.clamp()
	}
}

func (t *timeline) zoomEvent() {
	lane := t.lane()
	if lane == nil || t.ev < 0 {
		return
	}
	d := max(lane.Dur[t.ev], 1000)
	t.from, t.span = lane.Start[t.ev]-d/2, 2*d
	t.clamp()
}

// nextPeer selects the next member of the selected collective, on its lane.
func (t *timeline) nextPeer() {
	c := t.coll()
	if c == nil || len(c.Members) < 2 {
		return
	}
	me := slices.IndexFunc(c.Members, func(m events.Member) bool { return m.Rank == t.rank() })
	m := c.Members[(me+1)%len(c.Members)]
	if t.only != nil && !t.only[m.Rank] {
		t.only[m.Rank] = true
		t.setStep(t.step)
	}
	t.row, t.ev = t.rowOf(m.Rank), m.Event
	t.follow()
	t.show(t.lane(), t.ev)
}

// coll is the selected event's collective, or nil.
func (t *timeline) coll() *events.Coll {
	lane := t.lane()
	if lane == nil || t.ev < 0 || t.ev >= lane.Len() || lane.Coll[t.ev] < 0 {
		return nil
	}
	return &t.c.Data.Colls[lane.Coll[t.ev]]
}

// detail describes the selected event, or the selected rank without events.
func (t *timeline) detail() []string {
	n := t.detailRows()
	lane := t.lane()
	if lane == nil || t.ev < 0 || t.ev >= lane.Len() {
		out := []string{t.rankLine(t.rank())}
		if t.c.Data == nil {
			out = append(out, t.c.Styles.Dim.Render("a result file holds no events: open the traces or the dataset to select events"))
		}
		return out
	}
	out := t.eventLines(lane, t.ev)
	if c := t.coll(); c != nil {
		out = append(out, t.memberLines(c, n-len(out))...)
	}
	return out
}

func (t *timeline) eventLines(lane *events.Lane, i int) []string {
	d, start := t.c.Data, t.cur().StartNs
	stream := "-"
	if s := lane.Stream[i]; s >= 0 && int(s) < len(d.Streams) {
		stream = d.Streams[s]
	}
	phase, micro := t.phaseAt(lane.Rank, lane.Start[i], lane.Micro[i])
	head := t.c.Styles.Title.Render(fmt.Sprintf("r%d ▸ %s", lane.Rank, vocab.Safe(d.Names[lane.Name[i]])))
	return []string{head, fmt.Sprintf("%s · %s · start %s · dur %s · step %s · microbatch %s · phase %s", lane.Kind[i], stream,
		vocab.Duration(lane.Start[i]-start), vocab.Duration(lane.Dur[i]), known(lane.Iter[i]), micro, phase)}
}

// phaseAt reads the phase and microbatch that the step's classified
// timeline gives the compute at instant ns; the event's own microbatch
// wins when the trace names one.
func (t *timeline) phaseAt(rank int, ns int64, micro int32) (string, string) {
	phase, mb := "-", known(micro)
	for _, r := range t.cur().Rows {
		if r.Rank != rank {
			continue
		}
		i := sort.Search(len(r.Segments), func(i int) bool { return r.Segments[i].EndNs > ns })
		if i < len(r.Segments) && r.Segments[i].StartNs <= ns && r.Segments[i].Phase != "" {
			phase = r.Segments[i].Phase
			if micro < 0 {
				mb = fmt.Sprint(r.Segments[i].Micro)
			}
		}
	}
	return phase, mb
}

func known(v int32) string {
	if v < 0 {
		return "-"
	}
	return fmt.Sprint(v)
}

// memberLines are the collective and each member's arrival, wait and transfer.
func (t *timeline) memberLines(c *events.Coll, room int) []string {
	bytes := "size unknown"
	if c.Bytes >= 0 {
		bytes = vocab.Bytes(c.Bytes)
	}
	comm := c.Comm
	if c.Desc != "" {
		comm += " " + vocab.Safe(c.Desc)
	}
	out := []string{fmt.Sprintf("%s on %s (%s) · %s · %d members · p: next member", c.Op, comm, c.Axis, bytes, len(c.Members))}
	start := t.cur().StartNs
	for k, m := range c.Members {
		if len(out) >= room && k < len(c.Members) {
			out = append(out[:len(out)-1], fmt.Sprintf("  … %d more members", len(c.Members)-k+1))
			break
		}
		mark := "  "
		if m.Rank == t.rank() {
			mark = "▸ "
		}
		out = append(out, fmt.Sprintf("%sr%-4d arrival %9s  wait %9s  transfer %9s", mark, m.Rank,
			vocab.Duration(m.ArrivalNs-start), vocab.Duration(m.WaitNs), vocab.Duration(m.TransferNs)))
	}
	return out
}

// rankLine is the selected rank's figures per step.
func (t *timeline) rankLine(rank int) string {
	for _, r := range t.c.Res.Ranks {
		if r.Rank == rank && noPipeline(t.c.Res) {
			return noPipelineRankLine(r, rankAxes(t.c.Res))
		}
		if r.Rank == rank {
			return fmt.Sprintf("rank %d (pp%d dp%d tp%d, %s GPU %d): compute %s · bubble %s %s (PP wait %s) · exposed TP %s PP xfer %s DP %s",
				r.Rank, r.PP, r.DP, r.TP, vocab.Safe(r.Host), r.LocalGPU, vocab.Duration(r.ComputeNs), vocab.Duration(r.BubbleNs),
				vocab.Percent(r.BubbleFraction), vocab.Duration(r.BubblePPWaitNs),
				vocab.Duration(r.ExposedNs["TP"]), vocab.Duration(r.BubblePPTransferNs), vocab.Duration(r.ExposedNs["DP"]))
		}
	}
	return ""
}
