package pprofx

import (
	"strconv"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

var phaseNames = map[string]string{"fwd": "forward", "bwd": "backward", "": "other"}

// fromTimeline attributes every timeline segment.
func fromTimeline(b *builder, r *result.Result, tr *model.Trace) {
	offsets := map[int]int64{}
	for _, rs := range r.Ranks {
		offsets[rs.Rank] = rs.ClockOffsetNs
	}
	for _, row := range r.Timeline.Rows {
		k := newKernels(tr, row.Rank, offsets[row.Rank], r.Timeline.StartNs, r.Timeline.EndNs)
		for _, s := range row.Segments {
			addSegment(b, row, s, k)
		}
	}
}

func addSegment(b *builder, row result.TimelineRow, s result.Segment, k *kernels) {
	phase := phaseNames[s.Phase]
	if phase == "" {
		phase = s.Phase
	}
	labels := map[string][]string{"rank": {strconv.Itoa(row.Rank)}, "stage": {strconv.Itoa(row.Stage)}, "phase": {phase}}
	if axis := axisOf(s.Category); axis != "" {
		labels["axis"] = []string{axis}
	}
	frames := append([]string{rankFrame(row.Rank), stageFrame(row.Stage), phase}, categoryFrames(s.Category)...)
	shares := k.share(s)
	var given int64
	for _, sh := range shares {
		b.add(sh.ns, labels, append(frames, sh.name)...)
		given += sh.ns
	}
	b.add(s.EndNs-s.StartNs-given, labels, frames...)
}

// categoryFrames names a category's frames: the bubble's PP wait sits
// under the bubble, so a flame graph shows the whole bubble as one frame.
func categoryFrames(cat string) []string {
	if cat == vocab.CatPPWait {
		return []string{vocab.CategoryLabel(vocab.CatBubble), "PP wait"}
	}
	return []string{vocab.CategoryLabel(cat)}
}

// axisOf returns the communication axis of a category, "" for none.
func axisOf(cat string) string { return vocab.CategoryAxis(cat) }

// fromRanks attributes each rank's per-step averages when there is no
// timeline: compute, exposed communication per axis (for PP, the bubble's
// PP transfer), the bubble's PP wait, idle, and the rest of the step as
// "other".
func fromRanks(b *builder, r *result.Result) {
	for _, rs := range r.Ranks {
		labels := map[string][]string{"rank": {strconv.Itoa(rs.Rank)}, "stage": {strconv.Itoa(rs.PP)}}
		frames := []string{rankFrame(rs.Rank), stageFrame(rs.PP), "step"}
		used := rs.ComputeNs + rs.IdleNs + rs.BubblePPWaitNs
		b.add(rs.ComputeNs, labels, append(frames, vocab.CategoryLabel(vocab.CatCompute))...)
		for _, axis := range vocab.Axes {
			ns := exposedOutsideWait(rs, axis)
			l := map[string][]string{"rank": labels["rank"], "stage": labels["stage"], "axis": {axis}}
			b.add(ns, l, append(frames, vocab.CategoryLabel(vocab.ExposedCategory(axis)))...)
			used += ns
		}
		pp := map[string][]string{"rank": labels["rank"], "stage": labels["stage"], "axis": {"PP"}}
		b.add(rs.BubblePPWaitNs, pp, append(frames, categoryFrames(vocab.CatPPWait)...)...)
		b.add(rs.IdleNs, labels, append(frames, vocab.CategoryLabel(vocab.CatIdle))...)
		b.add(rs.StepNs-used, labels, append(frames, "other")...)
	}
}

// exposedOutsideWait is a rank's exposed time of axis; for PP, when the
// result splits the bubble, only the PP transfer in it (the wait for the
// neighbour is bubble).
func exposedOutsideWait(rs result.RankStats, axis string) int64 {
	if axis == "PP" && rs.BubblePPWaitNs+rs.BubblePPTransferNs > 0 {
		return rs.BubblePPTransferNs
	}
	return rs.ExposedNs[axis]
}
