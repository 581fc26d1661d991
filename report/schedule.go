package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// scheduleNote ("" for none) says where the schedule and the phases came from: each
// stage's forwards before its first backward (what separates GPipe from
// 1F1B) and the cues the ranks' phases were read from.
func scheduleNote(res *result.Result) string {
	ev := res.ScheduleEvidence
	if len(ev) == 0 {
		if res.Schedule != "unknown" {
			return "" // a Result without the evidence (older, or made by hand)
		}
		return "schedule unknown: no cue for forward and backward passes (no per-microbatch ranges, autograd thread or PP transfers)"
	}
	warm := make([]string, len(ev))
	for i, e := range ev {
		warm[i] = fmt.Sprintf("%d", e.Warmup)
	}
	s := fmt.Sprintf("schedule %s from the pass order: forwards before the first backward on stages 0–%d: %s (1F1B: p−s, GPipe: all)",
		res.Schedule, len(ev)-1, strings.Join(warm, ", "))
	if len(ev) < len(res.Stages) {
		s = fmt.Sprintf("schedule %s from the pass order of %d of %d stages", res.Schedule, len(ev), len(res.Stages))
	}
	return s + "; phases from " + cues(res)
}

// cues lists the phase sources of the ranks: "autograd", or "autograd (8
// ranks), pp-p2p (8 ranks)" when they differ.
func cues(res *result.Result) string {
	count := map[string]int{}
	for _, r := range res.Ranks {
		count[cueText(r.PhaseSource)]++
	}
	names := make([]string, 0, len(count))
	for c := range count {
		names = append(names, c)
	}
	slices.Sort(names)
	if len(names) == 1 {
		return names[0]
	}
	for i, c := range names {
		names[i] = fmt.Sprintf("%s (%s)", c, plural(int64(count[c]), "rank"))
	}
	return strings.Join(names, ", ")
}

// cueText is a phase source as the text says it.
func cueText(c string) string {
	switch c {
	case "":
		return "no cue"
	case "autograd":
		return "the autograd context of the launches"
	case "pp-p2p":
		return "PP transfers matched across ranks"
	}
	return c
}
