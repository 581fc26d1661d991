package whatif

import (
	"fmt"
	"slices"
	"strings"
)

// ScenarioNames are the names Lookup accepts ("zero-AXIS" for every axis).
var ScenarioNames = []string{"fix-rank", "balance-stages", "hide-dp", "zero-tp", "zero-pp", "zero-dp", "zero-cp", "zero-ep", "no-delays"}

// Lookup returns the named scenario; fix-rank needs rank ≥ 0.
func Lookup(name string, rank int32) (Scenario, error) {
	switch {
	case name == "fix-rank":
		if rank < 0 {
			return Scenario{}, fmt.Errorf("scenario fix-rank needs a rank (--fix-rank N)")
		}
		return FixRank(rank), nil
	case name == "balance-stages":
		return BalanceStages(), nil
	case name == "hide-dp":
		return HideAxis("DP"), nil
	case name == "no-delays":
		return NoLaunchDelays(), nil
	case strings.HasPrefix(name, "zero-") && slices.Contains(ScenarioNames, name):
		return ZeroAxis(strings.ToUpper(strings.TrimPrefix(name, "zero-"))), nil
	}
	return Scenario{}, fmt.Errorf("unknown scenario %q (want one of %s)", name, strings.Join(ScenarioNames, ", "))
}

// Defaults are the scenarios worth running on g: fix rank (when rank ≥ 0),
// balance stages (several stages), hide the DP sync and zero each axis
// that g's collectives use, remove launch delays.
func Defaults(g *Graph, rank int32) []Scenario {
	var out []Scenario
	if rank >= 0 {
		out = append(out, FixRank(rank))
	}
	if lastStage(g) > 0 {
		out = append(out, BalanceStages())
	}
	axes := map[string]bool{}
	for ty, a := range g.Axis {
		if g.Comm[ty] && a != "" {
			axes[strings.ToUpper(a)] = true
		}
	}
	if axes["DP"] {
		out = append(out, HideAxis("DP"))
	}
	for _, a := range []string{"TP", "PP", "DP", "CP", "EP"} {
		if axes[a] {
			out = append(out, ZeroAxis(a))
		}
	}
	return append(out, NoLaunchDelays())
}
