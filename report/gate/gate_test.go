package gate

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

func TestParseRule(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Rule
	}{{"5%", Rule{Rel: 0.05}}, {"10", Rule{Rel: 0.10}}, {"2ms", Rule{Abs: 2e6, HasAbs: true}}, {"1.5pp", Rule{Abs: 0.015, HasAbs: true}}} {
		if got, err := ParseRule(c.in); err != nil || got != c.want {
			t.Errorf("ParseRule(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "5x", "-3%", "fast", "-2ms", "pp"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) accepted", bad)
		}
	}
}

func TestJudge(t *testing.T) {
	r := Rule{Rel: 0.05}
	f := Figure{Unit: UnitNs, Base: 100, New: 110, Floor: 1}
	if reg, _ := r.Judge(f); !reg {
		t.Error("+10 % at 5 % did not regress")
	}
	f.Spread = 20
	if reg, _ := r.Judge(f); reg {
		t.Error("+10 within a spread of 20 regressed")
	}
	tok := Figure{Unit: UnitTokens, Base: 100, New: 90, HigherBetter: true}
	if reg, _ := r.Judge(tok); !reg {
		t.Error("throughput falling 10 % did not regress")
	}
	abs := Rule{Abs: 0.02, HasAbs: true}
	if reg, _ := abs.Judge(Figure{Unit: UnitFraction, Base: 0.10, New: 0.11}); reg {
		t.Error("+1 pp regressed against 2 pp")
	}
	if reg, _ := abs.Judge(Figure{Unit: UnitFraction, Base: 0.10, New: 0.13}); !reg {
		t.Error("+3 pp did not regress against 2 pp")
	}
}

// TestParseFailOnRefusesTypos: a typo'd kind or a malformed threshold is
// an error that lists the kinds, so that a gate is never silently off.
func TestParseFailOnRefusesTypos(t *testing.T) {
	for _, bad := range []string{"nosuch:5ms", "buble:1%", "bubble:5", "bubble:fast", "tp:-1ms"} {
		_, err := ParseFailOn(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
		} else if strings.HasPrefix(bad, "nosuch") && !strings.Contains(err.Error(), "pipeline_bubble (bubble)") {
			t.Errorf("%q: error does not list the kinds: %v", bad, err)
		}
	}
	g, err := ParseFailOn("bubble:20%")
	if err != nil || g.Kind != vocab.KindBubble || g.Share != 0.2 {
		t.Fatalf("bubble:20%% = %+v, %v", g, err)
	}
	res := &result.Result{Findings: []result.Finding{{Kind: vocab.KindBubble, CostNs: 30e6, CostShare: 0.3}}}
	if fs := Check(res, []FailOn{g}); len(fs) != 1 {
		t.Fatal("a 30 % bubble passed a 20 % gate")
	}
	g, _ = ParseFailOn("exposed_dp_comm:5ms")
	if g.Ns != 5e6 || len(Check(res, []FailOn{g})) != 0 {
		t.Fatalf("dp gate %+v tripped on a bubble finding", g)
	}
}

// TestParseSelector: metric keys and figure ids are taken, anything else
// is refused with the kinds listed.
func TestParseSelector(t *testing.T) {
	for _, ok := range []string{"bubble_fraction", "stage[2].bubble_fraction:1pp", "exposed_tp_ns:2ms", "step:3%", "slow_rank[5]", "finding.gpu_idle"} {
		if _, err := ParseSelector(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"buble", "stage[x].bubble_ns", "exposed_zz_ns", "step:often"} {
		if _, err := ParseSelector(bad); err == nil {
			t.Errorf("%q accepted", bad)
		} else if bad == "buble" && !strings.Contains(err.Error(), "bubble_fraction") {
			t.Errorf("error does not list the kinds: %v", err)
		}
	}
	s, _ := ParseSelector("stage[2].bubble_fraction")
	if !s.Selects("bubble_fraction", "stage[2].bubble_fraction") || s.Selects("bubble_fraction", "stage[1].bubble_fraction") {
		t.Error("a figure id selects the wrong figures")
	}
}

// TestFailOnsAsAFlag: --fail-on repeats, refuses a typo, writes back what
// it read, and First is the first tripped gate in gate order.
func TestFailOnsAsAFlag(t *testing.T) {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var g FailOns
	fs.Var(&g, "fail-on", "")
	if err := fs.Parse([]string{"--fail-on", "dp:5ms", "--fail-on", "bubble:20%", "--fail-on", "imbalance:15.5%", "--fail-on", "missing"}); err != nil {
		t.Fatal(err)
	}
	if got := g.String(); got != "exposed_dp_comm:5ms,pipeline_bubble:20%,stage_imbalance:15.5%,missing_ranks" {
		t.Errorf("String = %q", got)
	}
	if err := fs.Parse([]string{"--fail-on", "buble:1%"}); err == nil || len(g) != 4 {
		t.Errorf("a typo: %v, %d gates", err, len(g))
	}
	res := &result.Result{Findings: []result.Finding{
		{Kind: vocab.KindExposedDP, CostNs: 4e6, CostShare: 0.05},
		{Kind: vocab.KindBubble, CostNs: 30e6, CostShare: 0.3},
		{Kind: vocab.KindMissingRanks},
	}}
	f, failed := g.First(res)
	if !failed || f.Gate.Kind != vocab.KindBubble || f.Finding.CostNs != 30e6 {
		t.Errorf("First = %+v, %v; want the bubble (the DP finding is under 5ms)", f, failed)
	}
	if _, failed := g[:1].First(res); failed {
		t.Error("4ms of exposed DP tripped a 5ms gate")
	}
}

// TestHelpListsEveryKind: the --fail-on help is the registry, a kind a line.
func TestHelpListsEveryKind(t *testing.T) {
	help := FindingKindsHelp()
	if n := strings.Count(help, "\n"); n != len(vocab.FindingKinds) {
		t.Errorf("help has %d lines for %d kinds", n, len(vocab.FindingKinds))
	}
	for _, k := range vocab.FindingKinds {
		if !strings.Contains(help, k.Name+" ("+k.Alias+")") || !strings.Contains(help, k.Help) {
			t.Errorf("help lacks %s", k.Name)
		}
	}
}
