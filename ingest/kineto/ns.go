package kineto

import "errors"

var (
	errNumber   = errors.New("not a decimal number")
	errOverflow = errors.New("number out of range")
)

// maxMicros keeps ns = µs × 1000 inside int64 with room for ts+dur.
const maxMicros = int64(1) << 62 / 1000

// parseMicros converts the decimal text of a Kineto time in microseconds
// ("1711964646000000.123", "-5", "4.5e3") to int64 nanoseconds without a
// float64 round trip: ns is the value truncated to whole nanoseconds and
// sub the dropped fraction of a nanosecond (approximate, in [0, 1)), which
// is non-zero only for float traces printed with more than 3 decimals.
func parseMicros(b []byte) (ns int64, sub float64, err error) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if v, ok := plainMicros(b); ok {
		ns, sub, err = v, 0, nil
	} else {
		ns, sub, err = fastMicros(b)
	}
	if err == errSlow {
		ns, sub, err = slowMicros(b)
	}
	if err != nil {
		return 0, 0, err
	}
	if neg {
		return -ns, 0, nil // negative times are rejected or clamped later
	}
	return ns, sub, nil
}

var errSlow = errors.New("needs the slow path")

var pow10 = [...]int64{1000, 100, 10, 1}

// plainMicros handles what Kineto writes, 1 to 16 digits (under
// maxMicros, so that the nanoseconds stay in range) and at most 3 decimals
// ("4458676416788.066", "1712195495519689.047"), exactly as fastMicros
// does, with fewer branches; ok is false for anything else.
func plainMicros(b []byte) (int64, bool) {
	var v int64
	i := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + int64(b[i]-'0')
	}
	if i == 0 || i > 16 || v >= maxMicros {
		return 0, false
	}
	if i == len(b) {
		return v * 1000, true
	}
	if b[i] != '.' || len(b)-i-1 < 1 || len(b)-i-1 > 3 {
		return 0, false
	}
	frac := len(b) - i - 1
	for _, c := range b[i+1:] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v * pow10[frac], true
}

// fastMicros handles numbers without an exponent in one pass.
func fastMicros(b []byte) (int64, float64, error) {
	var v, subNum, subDen int64 = 0, 0, 1
	frac, digits := -1, 0
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits++
			if frac >= 3 {
				if subDen < 1e9 {
					subNum, subDen = subNum*10+int64(c-'0'), subDen*10
				}
				continue
			}
			if v > maxMicros*100 {
				return 0, 0, errOverflow
			}
			v = v*10 + int64(c-'0')
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0:
			frac = 0
		case c == 'e' || c == 'E':
			return 0, 0, errSlow
		default:
			return 0, 0, errNumber
		}
	}
	if digits == 0 {
		return 0, 0, errNumber
	}
	v *= pow10[max(frac, 0)]
	if v > maxMicros*1000 {
		return 0, 0, errOverflow
	}
	return v, float64(subNum) / float64(subDen), nil
}

// slowMicros handles an exponent ("1.5e-05"), which Python writers emit.
func slowMicros(b []byte) (int64, float64, error) {
	m, rest, err := parseMantissa(b)
	if err != nil {
		return 0, 0, err
	}
	exp, err := parseExponent(rest)
	if err != nil {
		return 0, 0, err
	}
	return m.nanos(exp)
}

// mantissa is a decimal number's digits: int part and fraction digits.
type mantissa struct {
	digits []byte // all significant digits, int part then fraction
	point  int    // digits before the decimal point
}

func parseMantissa(b []byte) (mantissa, []byte, error) {
	start := 0
	for start < len(b)-1 && b[start] == '0' && b[start+1] != '.' {
		start++
	}
	i, point := start, -1
	digits := make([]byte, 0, 24)
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case c == '.' && point < 0:
			point = len(digits)
		default:
			goto done
		}
	}
done:
	if len(digits) == 0 {
		return mantissa{}, nil, errNumber
	}
	if point < 0 {
		point = len(digits)
	}
	return mantissa{digits, point}, b[i:], nil
}

func parseExponent(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if b[0] != 'e' && b[0] != 'E' || len(b) < 2 {
		return 0, errNumber
	}
	b = b[1:]
	neg := b[0] == '-'
	if b[0] == '-' || b[0] == '+' {
		b = b[1:]
	}
	e, ok := digits(b, 4)
	if !ok {
		return 0, errNumber
	}
	if neg {
		e = -e
	}
	return int(e), nil
}

// nanos returns the mantissa × 10^(exp+3) truncated to an integer, and
// the dropped fraction.
func (m mantissa) nanos(exp int) (int64, float64, error) {
	keep := m.point + exp + 3 // digits that make whole nanoseconds
	if keep > 19 {
		return 0, 0, errOverflow
	}
	var v int64
	for i := 0; i < max(keep, 0); i++ {
		d := int64(0)
		if i < len(m.digits) {
			d = int64(m.digits[i] - '0')
		}
		v = v*10 + d
	}
	sub, scale := 0.0, 0.1
	for i := max(keep, 0); i < len(m.digits); i++ {
		sub += float64(m.digits[i]-'0') * scale
		scale /= 10
	}
	for i := keep; i < 0; i++ {
		sub /= 10
	}
	if v > maxMicros*1000 {
		return 0, 0, errOverflow
	}
	return v, sub, nil
}

// span turns a start and a duration into whole nanoseconds. Exact inputs
// (at most 3 decimals, what Kineto writes) pass through; otherwise the start
// is rounded up and the end down, as HTA does for float traces, so that
// back-to-back events do not overlap.
func span(ts int64, tsSub float64, dur int64, durSub float64) (int64, int64) {
	if tsSub == 0 && durSub == 0 {
		return ts, dur
	}
	end := ts + dur
	if tsSub+durSub >= 1 {
		end++
	}
	start := ts
	if tsSub > 0 {
		start++
	}
	return start, max(end-start, 0)
}
