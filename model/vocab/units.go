package vocab

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Duration formats nanoseconds with three significant digits and the
// largest unit that keeps the value at least 1: "812 ns", "4.20 µs",
// "18.3 ms", "1.25 s".
func Duration(ns int64) string {
	neg := ""
	if ns < 0 {
		neg, ns = "-", -ns
	}
	switch {
	case ns < 1_000:
		return fmt.Sprintf("%s%d ns", neg, ns)
	case ns < 1_000_000:
		return neg + sig3(float64(ns)/1e3) + " µs"
	case ns < 1_000_000_000:
		return neg + sig3(float64(ns)/1e6) + " ms"
	default:
		return neg + sig3(float64(ns)/1e9) + " s"
	}
}

// DurationBrief formats nanoseconds as the findings' sentences do, with
// fewer digits than Duration: "18.3 ms", "420 µs", "1.25 s", "812 ns".
func DurationBrief(ns int64) string {
	switch a := math.Abs(float64(ns)); {
	case a >= 1e9:
		return fmt.Sprintf("%.2f s", float64(ns)/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.1f ms", float64(ns)/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.0f µs", float64(ns)/1e3)
	default:
		return fmt.Sprintf("%d ns", ns)
	}
}

// Millis formats nanoseconds as milliseconds with a fixed two decimals, for
// aligned table columns: "18.34".
func Millis(ns int64) string { return strconv.FormatFloat(float64(ns)/1e6, 'f', 2, 64) }

func sig3(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// Bytes formats a byte count in binary units: "512 B", "4.00 KiB", "1.50 GiB".
func Bytes(n int64) string {
	if n < 1024 && n > -1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, units := float64(n), []string{"KiB", "MiB", "GiB", "TiB", "PiB"}
	for i, u := range units {
		v /= 1024
		if math.Abs(v) < 1024 || i == len(units)-1 {
			return sig3(v) + " " + u
		}
	}
	return ""
}

// Rate formats bytes per second in decimal units, as NCCL reports bus
// bandwidth: "187 GB/s".
func Rate(bytesPerSec float64) string {
	for _, u := range []struct {
		div  float64
		name string
	}{{1e12, "TB/s"}, {1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "kB/s"}} {
		if bytesPerSec >= u.div {
			return sig3(bytesPerSec/u.div) + " " + u.name
		}
	}
	return sig3(bytesPerSec) + " B/s"
}

// Percent formats a fraction (0..1) as a percentage with one decimal: "15.8 %".
func Percent(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + " %" }

// PercentWhole formats a fraction as a whole percentage, as the findings'
// sentences do: "19 %".
func PercentWhole(f float64) string { return fmt.Sprintf("%.0f %%", 100*f) }

// Count formats an integer with thousands separators: "1,234,567".
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
