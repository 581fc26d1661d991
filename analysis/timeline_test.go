package analysis

import (
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// analyzeRun runs every step on a simulated job and keeps the run, whose
// per-step figures the timeline must agree with.
func analyzeRun(t *testing.T, name string) *run {
	t.Helper()
	tr := sampletest.Job(t, name).Trace
	r := newRun(tr, Options{})
	for _, s := range Steps {
		if err := s.Run(r); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
	}
	build(r)
	return r
}

// segmentSums adds the segment lengths of a timeline row per category.
func segmentSums(row result.TimelineRow) map[string]int64 {
	m := map[string]int64{}
	for _, s := range row.Segments {
		m[s.Category] += s.EndNs - s.StartNs
	}
	return m
}

func near1pct(got, want int64) bool {
	return math.Abs(float64(got-want)) <= 0.01*math.Abs(float64(want))+1000
}

// TestTimelineBubbleMatchesFigures: in the timeline step, every rank's
// pp_wait segments sum to its bubble's PP wait, pp_exposed to its PP
// transfer, and bubble + pp_wait + pp_exposed + memcpy to its bubble; the
// bubble as the findings count it (all but the PP transfer) is the
// bubble-like segments plus copies.
func TestTimelineBubbleMatchesFigures(t *testing.T) {
	for _, name := range []string{"default", "balanced-gpipe", "p2p-nometa", "dp-overlap", "interleaved"} {
		t.Run(name, func(t *testing.T) {
			r := analyzeRun(t, name)
			k := r.representative()
			if r.res.Timeline == nil || len(r.res.Timeline.Rows) != len(r.ranks) {
				t.Fatalf("timeline has no row per rank: %+v", r.res.Timeline)
			}
			for i, row := range r.res.Timeline.Rows {
				f, m := r.ranks[i].figs[k], segmentSums(row)
				checkBubbleRow(t, row.Rank, m, f.Bubble, f.BubblePPWait, f.BubblePPTransfer)
			}
		})
	}
}

func checkBubbleRow(t *testing.T, rank int, m map[string]int64, bubble, wait, transfer int64) {
	t.Helper()
	if !near1pct(m["pp_wait"], wait) {
		t.Errorf("rank %d: pp_wait segments %d ns, bubble PP wait %d", rank, m["pp_wait"], wait)
	}
	if !near1pct(m["pp_exposed"], transfer) {
		t.Errorf("rank %d: pp_exposed segments %d ns, bubble PP transfer %d", rank, m["pp_exposed"], transfer)
	}
	if got := m["bubble"] + m["pp_wait"] + m["memcpy"]; !near1pct(got, bubble-transfer) {
		t.Errorf("rank %d: bubble-like segments %d ns, bubble without PP transfer %d", rank, got, bubble-transfer)
	}
	if m["idle"] != 0 {
		t.Errorf("rank %d: %d ns idle in a pipeline job, want it named bubble", rank, m["idle"])
	}
}

// TestTimelineShowsTheWaitAsBubble: on the bundled job most of the bubble
// is send/recv waiting for the neighbour, and the timeline says so.
func TestTimelineShowsTheWaitAsBubble(t *testing.T) {
	r := analyzeRun(t, "default")
	var wait, transfer int64
	for _, row := range r.res.Timeline.Rows {
		m := segmentSums(row)
		wait, transfer = wait+m["pp_wait"], transfer+m["pp_exposed"]
	}
	if wait < 5*transfer || wait == 0 {
		t.Errorf("pp_wait %d ns, pp_exposed %d ns over all rows: want the wait to dominate", wait, transfer)
	}
}
