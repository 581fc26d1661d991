package gate

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
)

// FindingKindsHelp is the registry as help prints it: one kind a line,
// "  pipeline_bubble (bubble)  pipeline bubble per step".
func FindingKindsHelp() string {
	var b strings.Builder
	for _, k := range vocab.FindingKinds {
		fmt.Fprintf(&b, "  %-34s %s\n", k.Name+" ("+k.Alias+")", k.Help)
	}
	return b.String()
}

// FindingKindNames lists the kinds of the registry (vocab.FindingKinds) as
// help shows them: "pipeline_bubble (bubble)".
func FindingKindNames() []string {
	var out []string
	for _, k := range vocab.FindingKinds {
		out = append(out, fmt.Sprintf("%s (%s)", k.Name, k.Alias))
	}
	return out
}

// FailOn is one --fail-on: a finding kind and the cost above which it
// fails, a share of the step (Share) or a duration (Ns); neither: any.
type FailOn struct {
	Kind  string
	Share float64
	Ns    int64
}

// ParseFailOn reads KIND[:THRESHOLD], THRESHOLD a share of the step (15%,
// or 15pp) or a duration (5ms). An unknown kind or a malformed threshold
// is an error that lists the kinds.
func ParseFailOn(s string) (FailOn, error) {
	kind, thr, hasThr := strings.Cut(s, ":")
	g := FailOn{Kind: findingKind(kind)}
	if g.Kind == "" {
		return g, fmt.Errorf("unknown kind %q; kinds: %s", kind, strings.Join(FindingKindNames(), ", "))
	}
	if !hasThr {
		return g, nil
	}
	var err error
	switch t := strings.TrimSpace(thr); {
	case strings.HasSuffix(t, "%"):
		g.Share, err = number(strings.TrimSuffix(t, "%"))
		g.Share /= 100
	case strings.HasSuffix(t, "pp"):
		g.Share, err = number(strings.TrimSuffix(t, "pp"))
		g.Share /= 100
	default:
		var d time.Duration
		d, err = time.ParseDuration(t)
		if err == nil && d <= 0 {
			err = fmt.Errorf("not positive")
		}
		g.Ns = d.Nanoseconds()
	}
	if err != nil {
		return g, fmt.Errorf("%s: bad threshold %q: want a share of the step like 15%% or a duration like 5ms", kind, thr)
	}
	return g, nil
}

// findingKind is the finding kind that name or its alias names, "" if none.
func findingKind(name string) string {
	k, _ := vocab.LookupKind(name)
	return k.Name
}

// Failure is a finding that tripped a gate.
type Failure struct {
	Gate     FailOn
	Finding  result.Finding
	Headline string // the finding's headline, rendered
}

func (f Failure) String() string {
	return fmt.Sprintf("gate %s failed: %s", f.Gate.Kind, f.Headline)
}

// Check lists the findings of res that trip gates, in gate order. A
// missing_ranks finding has no cost: its gate trips whenever it is there.
func Check(res *result.Result, gates []FailOn) []Failure {
	var out []Failure
	for _, g := range gates {
		for _, f := range res.Findings {
			if f.Kind == g.Kind && g.trips(f) {
				out = append(out, Failure{g, f, prose.Headline(res, f)})
			}
		}
	}
	return out
}

func (g FailOn) trips(f result.Finding) bool {
	switch {
	case f.Kind == vocab.KindMissingRanks:
		return true
	case g.Ns > 0:
		return f.CostNs > g.Ns
	}
	return f.CostShare > g.Share
}

// FailOns are the --fail-on gates of a command line. As a flag.Value each
// Set parses one KIND[:THRESHOLD] (ParseFailOn), so a flag may repeat.
type FailOns []FailOn

// String lists the gates as Set takes them.
func (g *FailOns) String() string {
	var out []string
	for _, f := range *g {
		out = append(out, f.String())
	}
	return strings.Join(out, ",")
}

// Set adds the gate s.
func (g *FailOns) Set(s string) error {
	f, err := ParseFailOn(s)
	if err != nil {
		return err
	}
	*g = append(*g, f)
	return nil
}

// First is the first finding of res that trips a gate, in gate order:
// what fails `analyze --fail-on` (exit 3).
func (g FailOns) First(res *result.Result) (Failure, bool) {
	fs := Check(res, g)
	if len(fs) == 0 {
		return Failure{}, false
	}
	return fs[0], true
}

// String writes the gate as ParseFailOn reads it: "pipeline_bubble:20%",
// "exposed_dp_comm:5ms", or the kind alone.
func (g FailOn) String() string {
	switch {
	case g.Ns > 0:
		return g.Kind + ":" + time.Duration(g.Ns).String()
	case g.Share > 0:
		return g.Kind + ":" + strconv.FormatFloat(100*g.Share, 'g', 10, 64) + "%"
	}
	return g.Kind
}
