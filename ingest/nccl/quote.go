package nccl

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuote bounds what an error message quotes of an input value: a line
// or a string read from a dump can be hundreds of megabytes.
const MaxQuote = 200

// Quote is strconv.Quote of s, cut after MaxQuote bytes (with "…").
func Quote(s string) string {
	if len(s) <= MaxQuote {
		return strconv.Quote(s)
	}
	return strconv.Quote(Cut(s)) + "…"
}

// Cut keeps the first MaxQuote bytes of s, at a rune boundary.
func Cut(s string) string {
	if len(s) <= MaxQuote {
		return s
	}
	n := MaxQuote
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
