package ncclog

import "strings"

const infoMark = " NCCL INFO "

// infoMatches is infoRe.FindAllStringSubmatchIndex(s, -1) without the
// regular expression: it looks for each " NCCL INFO " and reads the
// "host:pid:tid [dev]" before it backwards. The prefix is rigid (no group
// can hold a ':', ' ' or '['), so each match is the one " NCCL INFO " it
// ends with, and the leftmost start is the first letter of the host run.
// FuzzInfoMatches checks it against infoRe.
func infoMatches(s string) [][]int {
	var out [][]int
	for from := 0; ; {
		k := strings.Index(s[from:], infoMark)
		if k < 0 {
			return out
		}
		at := from + k
		if loc := infoBefore(s, at); loc != nil {
			out = append(out, loc)
			from = at + len(infoMark)
		} else {
			from = at + 1
		}
	}
}

// infoBefore reads `([A-Za-z][\w.-]*):(\d+):(\d+) \[(\d+)\]` ending at
// at (where " NCCL INFO " starts), or returns nil.
func infoBefore(s string, at int) []int {
	if at < 1 || s[at-1] != ']' {
		return nil
	}
	devEnd := at - 1
	devStart := digitsBack(s, devEnd)
	if devStart == devEnd || devStart < 2 || s[devStart-1] != '[' || s[devStart-2] != ' ' {
		return nil
	}
	tidEnd := devStart - 2
	tidStart := digitsBack(s, tidEnd)
	if tidStart == tidEnd || tidStart < 1 || s[tidStart-1] != ':' {
		return nil
	}
	pidEnd := tidStart - 1
	pidStart := digitsBack(s, pidEnd)
	if pidStart == pidEnd || pidStart < 1 || s[pidStart-1] != ':' {
		return nil
	}
	hostEnd := pidStart - 1
	run := hostEnd
	for run > 0 && hostByte(s[run-1]) {
		run--
	}
	hostStart := -1
	for i := run; i < hostEnd; i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			hostStart = i
			break
		}
	}
	if hostStart < 0 {
		return nil
	}
	return []int{hostStart, at + len(infoMark), hostStart, hostEnd, pidStart, pidEnd, tidStart, tidEnd, devStart, devEnd}
}

// digitsBack is the start of the run of ASCII digits that ends at end.
func digitsBack(s string, end int) int {
	for end > 0 && s[end-1] >= '0' && s[end-1] <= '9' {
		end--
	}
	return end
}

// hostByte reports whether c is in [\w.-].
func hostByte(c byte) bool {
	l := c | 0x20
	return l >= 'a' && l <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}
