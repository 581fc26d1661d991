package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tpptrace/tpptrace/model/vocab"
)

// ParseRule reads a compare threshold: "5%" (relative growth), "2ms" (an
// absolute growth of a time) or "1pp" (percentage points of a fraction).
// A bare number is a percentage, as --threshold has always taken it.
func ParseRule(s string) (Rule, error) {
	t := strings.TrimSpace(s)
	switch {
	case strings.HasSuffix(t, "pp"):
		v, err := number(strings.TrimSuffix(t, "pp"))
		return Rule{Abs: v / 100, HasAbs: true}, thresholdErr(s, err)
	case strings.HasSuffix(t, "%"), isNumber(t):
		v, err := number(strings.TrimSuffix(t, "%"))
		return Rule{Rel: v / 100}, thresholdErr(s, err)
	}
	d, err := time.ParseDuration(t)
	if err == nil && d < 0 {
		err = fmt.Errorf("negative")
	}
	return Rule{Abs: float64(d.Nanoseconds()), HasAbs: true}, thresholdErr(s, err)
}

func isNumber(s string) bool { _, err := strconv.ParseFloat(s, 64); return err == nil }

// number is a finite non-negative number.
func number(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err == nil && (v < 0 || math.IsInf(v, 0) || math.IsNaN(v)) {
		err = fmt.Errorf("out of range")
	}
	return v, err
}

func thresholdErr(s string, err error) error {
	if err != nil {
		return fmt.Errorf("bad threshold %q: want a share like 5%%, a duration like 2ms or percentage points like 1pp", s)
	}
	return nil
}

// String is the rule as a user writes it: "5.0 %", "2.00 ms", "1.0 pp".
func (r Rule) String() string { return r.text(UnitNs) }

// Text is the rule for a figure of unit.
func (r Rule) text(unit string) string {
	switch {
	case !r.HasAbs:
		return vocab.Percent(r.Rel)
	case unit == UnitFraction:
		return PP(r.Abs)
	}
	return vocab.Duration(int64(r.Abs))
}

// Text is the rule as it applies to a figure of unit.
func (r Rule) Text(unit string) string { return r.text(unit) }

// PP writes a fraction difference in percentage points: "+2.9 pp" without
// the sign for non-negative values ("2.9 pp").
func PP(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + " pp" }
