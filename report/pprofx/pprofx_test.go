package pprofx

import (
	"bytes"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

// roundTrip writes p and parses it back.
func roundTrip(t *testing.T, p *profile.Profile) *profile.Profile {
	t.Helper()
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := profile.Parse(&buf)
	if err != nil {
		t.Fatalf("profile does not read back: %v", err)
	}
	if err := q.CheckValid(); err != nil {
		t.Fatal(err)
	}
	return q
}

// perRank sums sample values by rank label.
func perRank(p *profile.Profile) map[string]int64 {
	m := map[string]int64{}
	for _, s := range p.Sample {
		m[s.Label["rank"][0]] += s.Value[0]
	}
	return m
}

// frames returns a sample's frame names root first.
func frames(s *profile.Sample) []string {
	var out []string
	for i := len(s.Location) - 1; i >= 0; i-- {
		out = append(out, s.Location[i].Line[0].Function.Name)
	}
	return out
}

func TestEveryRankSumsToItsStep(t *testing.T) {
	c := fixture.Small()
	r := fixture.Result(c)
	p, err := Profile(r, fixture.Trace(c))
	if err != nil {
		t.Fatal(err)
	}
	q := roundTrip(t, p)
	step := r.Timeline.EndNs - r.Timeline.StartNs
	got := perRank(q)
	if len(got) != c.World() {
		t.Fatalf("%d ranks in the profile, want %d", len(got), c.World())
	}
	for rank, ns := range got {
		if ns != step {
			t.Errorf("rank %s: %d ns attributed, want the step's %d", rank, ns, step)
		}
	}
}

func TestKernelLeavesCarryComputeAndComm(t *testing.T) {
	c := fixture.Small()
	p, err := Profile(fixture.Result(c), fixture.Trace(c))
	if err != nil {
		t.Fatal(err)
	}
	leaf := map[string]int64{}
	var computeNs int64
	for _, s := range p.Sample {
		f := frames(s)
		if s.Label["rank"][0] != "0" {
			continue
		}
		if len(f) == 5 {
			leaf[f[3]+" / "+f[4]] += s.Value[0]
		}
		if f[3] == "compute" {
			computeNs += s.Value[0]
		}
		if f[0] != "rank 0" || f[1] != "stage 0" {
			t.Fatalf("rank 0 sample has stack %v", f)
		}
	}
	fwd := leaf["compute / sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n"]
	bwd := leaf["compute / sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_bwd"]
	if fwd+bwd != computeNs || fwd == 0 || bwd == 0 {
		t.Errorf("compute %d ns, kernels fwd %d + bwd %d", computeNs, fwd, bwd)
	}
	if leaf["TP exposed / ncclDevKernel_AllReduce_Sum_bf16_RING_LL"] == 0 || leaf["DP exposed / ncclDevKernel_AllReduce_Sum_f32_RING_LL"] == 0 {
		t.Errorf("no communication kernel leaves: %v", leaf)
	}
}

func TestLabelsAndPhases(t *testing.T) {
	p, err := Profile(fixture.Result(fixture.Small()), nil)
	if err != nil {
		t.Fatal(err)
	}
	phases := map[string]bool{}
	for _, s := range p.Sample {
		phases[s.Label["phase"][0]] = true
		f := frames(s)
		if f[3] == "TP exposed" && s.Label["axis"][0] != "TP" {
			t.Errorf("TP sample labelled axis %v", s.Label["axis"])
		}
		if len(f) != 4 && !(len(f) == 5 && f[3] == "bubble" && f[4] == "PP wait") {
			t.Errorf("without a trace a stack has no kernel leaf: %v", f)
		}
		if len(f) == 5 && s.Label["axis"][0] != "PP" {
			t.Errorf("PP wait sample labelled axis %v", s.Label["axis"])
		}
	}
	for _, want := range []string{"forward", "backward", "other"} {
		if !phases[want] {
			t.Errorf("no %s phase in %v", want, phases)
		}
	}
}

func TestWithoutTimelineUsesRankAverages(t *testing.T) {
	r := fixture.Result(fixture.Small())
	r.Timeline = nil
	p, err := Profile(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	for rank, ns := range perRank(roundTrip(t, p)) {
		if ns != r.StepNs {
			t.Errorf("rank %s: %d ns, want step %d", rank, ns, r.StepNs)
		}
	}
}

// TestBubbleHoldsThePPWait: the bubble's PP wait is a frame under the
// bubble, as long as the timeline's pp_wait segments, or without a
// timeline the ranks' PP wait; exposed PP is only the transfer.
func TestBubbleHoldsThePPWait(t *testing.T) {
	r := fixture.Result(fixture.Small())
	var segWait, segPP, wait, transfer int64
	for _, row := range r.Timeline.Rows {
		for _, s := range row.Segments {
			switch s.Category {
			case "pp_wait":
				segWait += s.EndNs - s.StartNs
			case "pp_exposed":
				segPP += s.EndNs - s.StartNs
			}
		}
	}
	for _, rs := range r.Ranks {
		wait, transfer = wait+rs.BubblePPWaitNs, transfer+rs.BubblePPTransferNs
	}
	checkBubbleFrames(t, r, segWait, segPP)
	r.Timeline = nil
	checkBubbleFrames(t, r, wait, transfer)
}

func checkBubbleFrames(t *testing.T, r *result.Result, wantWait, wantPP int64) {
	t.Helper()
	p, err := Profile(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	wait, pp := frameSums(p)
	if wait != wantWait || pp != wantPP || wantWait == 0 {
		t.Errorf("timeline %v: bubble/PP wait %d ns, PP exposed %d ns; want %d and %d", r.Timeline != nil, wait, pp, wantWait, wantPP)
	}
}

// frameSums adds the samples under bubble/PP wait and under PP exposed.
func frameSums(p *profile.Profile) (wait, pp int64) {
	for _, s := range p.Sample {
		f := frames(s)
		if len(f) >= 5 && f[3] == "bubble" && f[4] == "PP wait" {
			wait += s.Value[0]
		}
		if len(f) >= 4 && f[3] == "PP exposed" {
			pp += s.Value[0]
		}
	}
	return wait, pp
}

func TestEmptyResultIsAnError(t *testing.T) {
	if _, err := Profile(&result.Result{}, nil); err == nil {
		t.Error("an empty result gave a profile")
	}
	if _, err := Profile(nil, nil); err == nil {
		t.Error("a nil result gave a profile")
	}
}
