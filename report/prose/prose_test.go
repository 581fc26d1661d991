package prose

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

func TestDescribeOmitsUnknownHost(t *testing.T) {
	r := result.RankStats{Rank: 1, DP: 1, LocalGPU: 1}
	if got, want := describe(r), "rank 1 (pp0 dp1 tp0, GPU 1)"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	r.Host = "node003"
	if got, want := describe(r), "rank 1 (pp0 dp1 tp0, host node003 GPU 1)"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}

// TestEveryTemplateFills: each template of vocab.Statements, given every
// figure, word, rank, stage and axis it names, renders with no token left.
func TestEveryTemplateFills(t *testing.T) {
	tok := regexp.MustCompile(`\{([^}|]+)(\|[^}]*)?\}`)
	for say, tpl := range vocab.Statements {
		st := result.Say(say).About(1, 2).At(0).On("TP")
		for _, m := range tok.FindAllStringSubmatch(tpl, -1) {
			if w, ok := strings.CutPrefix(m[1], "@"); ok {
				st = st.Quoting(w, "W")
			} else {
				st = st.With(result.Count(m[1], 2))
			}
		}
		got, ok := fill(statement{nil, st}, tpl)
		if !ok || strings.ContainsAny(got, "{}[]") && !strings.Contains(tpl, "|list") || got == "" {
			t.Errorf("%s: %q left a token in %q", say, tpl, got)
		}
	}
}

func TestOptionalPartsAndFormats(t *testing.T) {
	st := result.Say(vocab.SayExposed, result.Ns("exposed", 12_340_000)).On("A2A")
	if got, want := Sentence(nil, st), "exposed all-to-all (A2A, not expert-parallel) communication: 12.3 ms per step not hidden under compute"; got != want {
		t.Errorf("without cost: %q, want %q", got, want)
	}
	st = st.With(result.Ns("cost", 420_000))
	if got := Sentence(nil, st); !strings.HasSuffix(got, ", 420 µs of it not waiting for a slow or late rank") {
		t.Errorf("with cost: %q", got)
	}
	vs := result.Say(vocab.SayComputeVs, result.Ns("compute", 50e6), result.Frac("diff", -0.031), result.Count("peers", 3), result.Ns("peer", 51e6))
	if got, want := Sentence(nil, vs), "its compute, 50.0 ms per step, is 3.1 % below its 3 peers' median (51.0 ms): it does not explain the lateness"; got != want {
		t.Errorf("compute vs peers: %q, want %q", got, want)
	}
	more := result.Say(vocab.SayMoreListed, result.Count("more", 1))
	if got := Sentence(nil, more); got != "1 more communicator lists missing ranks" {
		t.Errorf("more listed: %q", got)
	}
	if got := Sentence(nil, result.Say("no_such", result.Ns("x", 5))); got != "no_such: x=5 ns" {
		t.Errorf("unknown statement: %q", got)
	}
}

func TestHeadlineDescribesRanksFromTheResult(t *testing.T) {
	res := &result.Result{Ranks: []result.RankStats{{Rank: 3, PP: 1, DP: 0, TP: 1, Host: "n0", LocalGPU: 3}}}
	f := result.Finding{Headline: result.Say(vocab.SaySlowRank, result.Frac("excess", 0.2)).About(3)}
	if got, want := Headline(res, f), "slow rank: rank 3 (pp1 dp0 tp1, host n0 GPU 3) computes 20 % more than its peers"; got != want {
		t.Errorf("Headline = %q, want %q", got, want)
	}
	if got := Headline(nil, f); got != "slow rank: rank 3 computes 20 % more than its peers" {
		t.Errorf("without the Result: %q", got)
	}
}
