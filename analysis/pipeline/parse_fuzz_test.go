package pipeline

import (
	"slices"
	"testing"
)

// parseAnyRe is parseAny without the literal checks (FuzzParseAnyLiterals's oracle).
func parseAnyRe(name string) (a annotation, ok bool) {
	if m := ppRe.FindStringSubmatch(name); m != nil {
		ph := map[string]Phase{"F": PhaseFwd, "B": PhaseBwd, "I": PhaseBwd, "W": PhaseW}[m[2]]
		return annotation{ConvPipelining, ph, atoi(m[3]), -1, atoi(m[1])}, true
	}
	if m := singleRe.FindStringSubmatch(name); m != nil {
		ph := PhaseFwd
		if m[1] == "Backward" {
			ph = PhaseBwd
		}
		return annotation{ConvForward, ph, atoi(m[2]), -1, -1}, true
	}
	ph, mb, ch, ok := parseAnnotation(name)
	return annotation{ConvStep, ph, mb, ch, -1}, ok
}

// FuzzParseAnyLiterals checks that parseAny's literal checks skip no name
// a pattern matches.
func FuzzParseAnyLiterals(f *testing.F) {
	for _, s := range []string{"PP:0F3", "PP:5B2", "PP:1W0", "PP:x", "Forward 3", "Backward 12", "Forward x",
		"forward_step#3", "BWD#2 chunk 1", "fwd#3.1", "aten::mm", "ProfilerStep#4", "#", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		a, ok := parseAny(name)
		b, okb := parseAnyRe(name)
		if a != b || ok != okb {
			t.Fatalf("parseAny(%q) = %+v %v, regexps alone %+v %v", name, a, ok, b, okb)
		}
	})
}

// FuzzMatchAnnot checks matchAnnot against annotRe.
func FuzzMatchAnnot(f *testing.F) {
	for _, s := range []string{"forward_step#3", "backward_step#12 chunk 1", "xx fwd#3.1", "FWD#", "bwd #7x", "forward_step#3 chunk",
		"ffforward#1", "fwdbwd#2", "forward-x#9a9b", "backward\u212a#1", "Forward 3", "fwd#99999999999", "forward\tstep#1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		m, ascii := matchAnnot(name)
		if !ascii {
			return
		}
		if want := annotRe.FindStringSubmatch(name); !slices.Equal(m, want) {
			t.Fatalf("matchAnnot(%q) = %q, annotRe %q", name, m, want)
		}
	})
}
