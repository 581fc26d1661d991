package perfetto

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/palette"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

type event struct {
	Ph   string         `json:"ph"`
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Pid  int            `json:"pid"`
	Tid  int64          `json:"tid"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur"`
	S    string         `json:"s"`
	Args map[string]any `json:"args"`
}

func export(t *testing.T, r *result.Result, tr *model.Trace) []event {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r, tr); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		DisplayTimeUnit string  `json:"displayTimeUnit"`
		TraceEvents     []event `json:"traceEvents"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("export is not JSON: %v", err)
	}
	return doc.TraceEvents
}

func TestOneProcessPerRank(t *testing.T) {
	c := fixture.Small()
	evs := export(t, fixture.Result(c), fixture.Trace(c))
	names, slicePids := map[int]string{}, map[int]bool{}
	for _, e := range evs {
		switch {
		case e.Ph == "M" && e.Name == "process_name":
			names[e.Pid] = e.Args["name"].(string)
		case e.Ph == "X":
			slicePids[e.Pid] = true
		}
	}
	if len(names) != c.World() || len(slicePids) != c.World() {
		t.Fatalf("%d named processes, %d with slices; want %d", len(names), len(slicePids), c.World())
	}
	if names[10] != "rank 9 · stage 2 · node1" {
		t.Errorf("rank 9's process is named %q", names[10])
	}
}

// Rank 8 is on node1, whose clock runs ahead of rank 0's: its kernels must
// land on the classified step's segments once the offset is removed.
func TestEventsAreOnTheAlignedClock(t *testing.T) {
	c := fixture.Small()
	r := fixture.Result(c)
	evs := export(t, r, fixture.Trace(c))
	var first *result.Segment
	for i, s := range r.Timeline.Rows[8].Segments {
		if s.Category == "compute" {
			first = &r.Timeline.Rows[8].Segments[i]
			break
		}
	}
	for _, e := range evs {
		if e.Pid == 9 && e.Cat == "compute" && e.Args["step"] == float64(r.Timeline.Iteration) {
			if want := float64(first.StartNs) / 1e3; math.Abs(e.Ts-want) > 1e-3 {
				t.Fatalf("rank 8's first kernel of the step at %.3f µs, want %.3f", e.Ts, want)
			}
			return
		}
	}
	t.Fatal("no compute kernel of rank 8 in the classified step")
}

func TestBubblesAndFindings(t *testing.T) {
	r := fixture.Result(fixture.Small())
	evs := export(t, r, nil)
	bubbles, global, perRank := 0, 0, 0
	for _, e := range evs {
		switch {
		case e.Ph == "X" && e.Name == "bubble" && e.Tid == classifiedTid:
			bubbles++
		case e.Ph == "i" && e.S == "g":
			global++
		case e.Ph == "i" && e.S == "p":
			perRank++
			if e.Pid != r.SlowRanks[0].Rank+1 {
				t.Errorf("finding annotated on pid %d", e.Pid)
			}
		}
	}
	if bubbles < len(r.Timeline.Rows) || global != len(r.Findings) || perRank != 1 {
		t.Errorf("%d bubble slices, %d global and %d rank findings", bubbles, global, perRank)
	}
}

// TestPPWaitIsABubble: the classified track names the bubble's PP wait
// as bubble and colours it as the palette does.
func TestPPWaitIsABubble(t *testing.T) {
	r := fixture.Result(fixture.Small())
	var want int
	for _, row := range r.Timeline.Rows {
		for _, s := range row.Segments {
			if s.Category == vocab.CatPPWait {
				want++
			}
		}
	}
	got := 0
	for _, e := range export(t, r, nil) {
		if e.Tid == classifiedTid && e.Args["category"] == vocab.CatPPWait {
			got++
			if e.Name != "bubble: PP wait" || e.Args["colour"] != palette.Hex(vocab.CatPPWait) {
				t.Errorf("pp_wait slice named %q coloured %v", e.Name, e.Args["colour"])
			}
		}
	}
	if got != want || want == 0 {
		t.Errorf("%d pp_wait slices, want %d", got, want)
	}
}

func TestAwkwardNamesStayValidJSON(t *testing.T) {
	tr := &model.Trace{}
	name := "k\"\\\n\x01é\xff"
	tr.AddEvent(model.NewEvent(0, model.KindCompute, tr.Names.Intern(name), 1500, 250))
	evs := export(t, nil, tr)
	last := evs[len(evs)-1]
	if last.Name != "k\"\\\n\x01é\uFFFD" || last.Ts != 1.5 || last.Dur != 0.25 || last.Tid != 0 {
		t.Errorf("got %+v", last)
	}
}

func TestNothingToExport(t *testing.T) {
	if err := Write(&bytes.Buffer{}, nil, nil); err == nil {
		t.Error("exporting nothing gave no error")
	}
}

func TestMicroseconds(t *testing.T) {
	for ns, want := range map[int64]string{0: `{"t":0.000}`, 1: `{"t":0.001}`, 1234567: `{"t":1234.567}`, -1500: `{"t":-1.500}`} {
		if got := string(newObj(nil).us("t", ns).done()); got != want {
			t.Errorf("us(%d) = %s, want %s", ns, got, want)
		}
	}
}
