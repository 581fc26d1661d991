package steps

import (
	"regexp"
	"strconv"
	"strings"
)

// stepRangeName matches the step ranges frameworks and users push without
// being told to (../shared/reference/dialects.md): ProfilerStep#N,
// train_step, train_step N, iteration N, step N, step_N, case-insensitive,
// optionally behind an NVTX domain ("Megatron:train_step 3"). Group 1 is
// the family, group 2 the number when there is one.
var stepRangeName = regexp.MustCompile(`(?i)^(?:[\w.-]+:)?\s*(ProfilerStep|train[_ ]?step|iteration|iter|step)(?:\s*[#_:. -]?\s*(\d+))?\s*$`)

// Families are the step-name families in order of preference when a trace
// has several.
var Families = []string{"ProfilerStep", "train_step", "iteration", "iter", "step"}

// StepLike reports whether name is a step range and, when it is, its
// family ("ProfilerStep", "train_step", "iteration", "iter", "step") and
// its number (-1 when it has none). Only train_step is step-like without a
// number: "iteration" or "step" alone is too common a word.
func StepLike(name string) (family string, n int32, ok bool) {
	m := stepRangeName.FindStringSubmatch(name)
	if m == nil {
		return "", 0, false
	}
	k := familyKey(m[1])
	switch {
	case m[2] == "" && k == "trainstep":
		return canonical[k], -1, true
	case m[2] == "":
		return "", 0, false
	}
	v, err := strconv.ParseInt(m[2], 10, 32)
	if err != nil {
		return "", 0, false
	}
	return canonical[k], int32(v), true
}

// canonical spells each family in Steps.From.
var canonical = map[string]string{"profilerstep": "ProfilerStep", "trainstep": "train_step", "iteration": "iteration", "iter": "iter", "step": "step"}

// familyKey folds a family's spelling: "Train_Step", "train step",
// "trainstep" are one family.
func familyKey(f string) string {
	return strings.NewReplacer("_", "", " ", "").Replace(strings.ToLower(f))
}

// familyRank is the preference of a family (lower first).
func familyRank(f string) int {
	for i, x := range Families {
		if x == f {
			return i
		}
	}
	return len(Families)
}
