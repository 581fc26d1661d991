package prose

import (
	"fmt"
	"math"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// defaultFormat is the format of each unit when a token names none.
var defaultFormat = map[string]string{
	vocab.UnitNs: "dur", vocab.UnitFraction: "pct", vocab.UnitCount: "d", vocab.UnitRatio: "x2",
	vocab.UnitBytes: "bytes", vocab.UnitMHz: "thousands", vocab.UnitCelsius: "c0",
}

// formats are the named formats of a figure's value.
var formats = map[string]func(v float64) string{
	"dur":       func(v float64) string { return vocab.DurationBrief(int64(v)) },
	"pct":       vocab.PercentWhole,
	"pct1":      func(v float64) string { return fmt.Sprintf("%.1f %%", 100*v) },
	"abs1":      func(v float64) string { return fmt.Sprintf("%.1f %%", 100*math.Abs(v)) },
	"side":      func(v float64) string { return map[bool]string{true: "below", false: "above"}[v < 0] },
	"x2":        func(v float64) string { return fmt.Sprintf("%.2f×", v) },
	"ms2":       func(v float64) string { return fmt.Sprintf("%.2f", v/1e6) },
	"gib1":      func(v float64) string { return fmt.Sprintf("%.1f", v/(1<<30)) },
	"gib2":      func(v float64) string { return fmt.Sprintf("%.2f", v/(1<<30)) },
	"d":         func(v float64) string { return fmt.Sprint(int64(v)) },
	"c0":        func(v float64) string { return fmt.Sprintf("%.0f", v) },
	"bytes":     func(v float64) string { return vocab.Bytes(int64(v)) },
	"thousands": thousands,
}

// formatFigure writes f's value in format (its unit's default when "").
func formatFigure(f result.Figure, format string) string {
	if format == "" {
		format = defaultFormat[f.Unit]
	}
	if w, ok := strings.CutPrefix(format, "plural:"); ok {
		return plural(int64(f.Value), w)
	}
	if one, many, ok := strings.Cut(strings.TrimPrefix(format, "either:"), ":"); ok && strings.HasPrefix(format, "either:") {
		return map[bool]string{true: one, false: many}[f.Value == 1]
	}
	if fn, ok := formats[format]; ok {
		return fn(f.Value)
	}
	return fmt.Sprintf("%g", f.Value)
}

func plural(n int64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// thousands rounds to an integer with one thousands separator: "1,410".
func thousands(v float64) string {
	n := int64(v + 0.5)
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d,%03d", n/1000, n%1000)
}
