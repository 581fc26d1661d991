package gate

import (
	"fmt"
	"strings"
)

// Metric is one family of compared figures: its machine id (the "id" of
// compare's JSON deltas; [i] a stage, <axis> tp, pp, dp, cp, ep or a2a),
// its display name, unit, and whether compare gates it unless asked.
// Fractions are not gated by default: a fraction regresses only when its
// time cost grew too, or when --gate names it.
type Metric struct {
	Key     string // what --gate takes: "bubble_fraction"
	ID      string // "stage[i].bubble_fraction"
	Name    string // "stage i bubble fraction"
	Unit    string
	Default bool
	Help    string
}

// Metrics is the registry of compared figures, in compare's order.
var Metrics = []Metric{
	{"step", "step_ns", "step", UnitNs, true, "the step time: earliest rank's start to latest rank's end"},
	{"period", "period_ns", "step period", UnitNs, true, "the iteration period: median over ranks of their step"},
	{"tokens_per_s", "tokens_per_s", "tokens/s", UnitTokens, true, "throughput (with --tokens-per-step); regresses when it falls"},
	{"mfu", "mfu", "MFU", UnitFraction, true, "model FLOPs utilization; regresses when it falls"},
	{"bubble", "stage[i].bubble_ns", "stage i bubble", UnitNs, true, "each stage's bubble per step (without a pipeline: idle GPU)"},
	{"bubble_fraction", "stage[i].bubble_fraction", "stage i bubble fraction", UnitFraction, false, "each stage's bubble as a share of its step"},
	{"exposed", "exposed_<axis>_ns", "exposed <AXIS>", UnitNs, true, "exposed communication per axis, mean over ranks (PP: the transfer)"},
	{"exposed_wait", "exposed_wait_<axis>_ns", "exposed wait <AXIS>", UnitNs, true, "of it, the wait for late or slow members (TP, DP, ...)"},
	{"compute", "slowest_stage_compute_ns", "slowest stage compute", UnitNs, true, "the slowest stage's compute"},
	{"peak_memory", "stage[i].peak_mem_bytes", "stage i peak memory", UnitBytes, true, "each stage's peak GPU memory (past the threshold and 1 MiB)"},
	{"slow_rank", "slow_rank[r]", "slow rank r", UnitNamed, true, "a rank newly named slow"},
	{"late_rank", "late_rank[r]", "late rank r", UnitNamed, true, "a rank newly named late"},
	{"finding", "finding.<kind>[ranks]", "finding <kind>", UnitNs, true, "a finding of a kind the base did not have, by its cost"},
}

// MetricByKey is the registered metric whose Key is key.
func MetricByKey(key string) (Metric, bool) {
	for _, m := range Metrics {
		if m.Key == key {
			return m, true
		}
	}
	return Metric{}, false
}

// MetricKeys lists what --gate takes.
func MetricKeys() []string {
	var out []string
	for _, m := range Metrics {
		out = append(out, m.Key)
	}
	return out
}

// MetricsHelp is the registry as help text, one metric per line.
func MetricsHelp() string {
	var b strings.Builder
	for _, m := range Metrics {
		def := ""
		if !m.Default {
			def = " (gated only when its time grew too, or when named)"
		}
		fmt.Fprintf(&b, "  %-16s %-26s %s%s\n", m.Key, m.ID, m.Help, def)
	}
	return b.String()
}

// Selector is one --gate of compare: the figures it names (a metric's Key,
// or one figure's id like stage[2].bubble_fraction) and, when given, the
// rule that replaces the default threshold for them.
type Selector struct {
	Match   string
	Rule    Rule
	HasRule bool
}

// ParseSelector reads KIND[:THRESHOLD], KIND a metric key or a figure id
// of a registered family. An unknown kind or a malformed threshold is an
// error that lists the kinds.
func ParseSelector(s string) (Selector, error) {
	kind, thr, hasThr := strings.Cut(s, ":")
	if !knownFigure(kind) {
		return Selector{}, fmt.Errorf("unknown gate %q; kinds: %s (or one figure's id, like stage[0].bubble_fraction or exposed_tp_ns)", kind, strings.Join(MetricKeys(), ", "))
	}
	sel := Selector{Match: kind, HasRule: hasThr}
	if hasThr {
		r, err := ParseRule(thr)
		if err != nil {
			return sel, fmt.Errorf("gate %s: %w", kind, err)
		}
		sel.Rule = r
	}
	return sel, nil
}

// knownFigure: kind is a metric key, or an id that a metric's id pattern
// produces.
func knownFigure(kind string) bool {
	if _, ok := MetricByKey(kind); ok {
		return true
	}
	return KeyOfID(kind) != ""
}

// KeyOfID is the metric key of a figure id ("stage[2].bubble_fraction" →
// "bubble_fraction"), "" when no metric makes such ids.
func KeyOfID(id string) string {
	for _, m := range Metrics {
		if idMatches(m.ID, id) {
			return m.Key
		}
	}
	return ""
}

// idMatches tells whether id fits pattern: [i] and [r] take a number,
// <axis> an axis in lower case, <kind>[ranks] anything after "finding.".
func idMatches(pattern, id string) bool {
	if pre, ok := strings.CutSuffix(pattern, "<kind>[ranks]"); ok {
		return strings.HasPrefix(id, pre) && len(id) > len(pre)
	}
	if pre, post, ok := strings.Cut(pattern, "<axis>"); ok {
		ax, ok1 := strings.CutPrefix(id, pre)
		ax, ok2 := strings.CutSuffix(ax, post)
		return ok1 && ok2 && isAxis(ax)
	}
	for _, hole := range []string{"[i]", "[r]"} {
		if pre, post, ok := strings.Cut(pattern, hole); ok {
			n, ok1 := strings.CutPrefix(id, pre+"[")
			n, ok2 := strings.CutSuffix(n, "]"+post)
			return ok1 && ok2 && isNumber(n) && !strings.ContainsAny(n, ".-+eE")
		}
	}
	return pattern == id
}

func isAxis(s string) bool {
	switch s {
	case "tp", "pp", "dp", "cp", "ep", "a2a":
		return true
	}
	return false
}

// Selects tells whether sel names the figure id of metric key.
func (sel Selector) Selects(key, id string) bool { return sel.Match == key || sel.Match == id }
