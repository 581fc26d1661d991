package report

import "bytes"

// spaces is the indentation of the first levels, two spaces a level.
const spaces = "                                                                "

// indentJSON appends src, compact JSON as json.Marshal writes it (no
// white space outside strings), indented two spaces a level with no
// prefix: the bytes json.Indent(dst, src, "", "  ") appends, in one pass
// that copies strings and numbers whole (json.Indent steps its scanner
// byte by byte, twice the cost of the encoding). Input with white space
// outside strings is not compact: use json.Indent.
func indentJSON(dst, src []byte) []byte {
	dst, _ = indentFrom(dst, src, 0)
	return dst
}

// indentFrom is indentJSON of src, a piece of a compact text that starts
// at the given depth and outside a string, right before a punctuation mark
// or at the start; it returns the depth after src. Pieces cut at
// punctuation and indented one after the other, each from the depth the
// last left, append the whole text's indentation.
func indentFrom(dst, src []byte, depth int) ([]byte, int) {
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case '"':
			j := stringEnd(src, i)
			dst = append(dst, src[i:j]...)
			i = j
			continue
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, c, src[i+1])
				i += 2
				continue
			}
			depth++
			dst = newline(append(dst, c), depth)
		case ',':
			dst = newline(append(dst, c), depth)
		case ':':
			dst = append(dst, ':', ' ')
		case '}', ']':
			depth--
			dst = append(newline(dst, depth), c)
		default:
			j := literalEnd(src, i)
			dst = append(dst, src[i:j]...)
			i = j
			continue
		}
		i++
	}
	return dst, depth
}

// stringEnd is the index just past the string that starts at src[i], a
// quote (len(src) when it does not end).
func stringEnd(src []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src)
		}
		j += k
		if !escaped(src, j) {
			return j + 1
		}
		j++
	}
}

// escaped says whether the quote at src[j] follows an odd run of
// backslashes.
func escaped(src []byte, j int) bool {
	n := 0
	for j--; j >= 0 && src[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// literalEnd is the index of the first punctuation (or quote) at or after
// src[i+1]: the end of a number, true, false or null.
func literalEnd(src []byte, i int) int {
	for i++; i < len(src); i++ {
		switch src[i] {
		case '{', '}', '[', ']', ',', ':', '"':
			return i
		}
	}
	return i
}

// newline appends a newline and depth levels of indentation.
func newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for n := 2 * depth; n > 0; {
		k := min(n, len(spaces))
		dst = append(dst, spaces[:k]...)
		n -= k
	}
	return dst
}
