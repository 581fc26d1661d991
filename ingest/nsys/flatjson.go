package nsys

import "encoding/json"

// flatJSON decodes, without encoding/json's reflection (most of decoding
// NCCL's payloads), the JSON text of the shape NCCL writes: one object
// whose values are numbers, strings without escapes or non-ASCII bytes,
// true, false or null. It gives what decodeJSON gives (numbers as
// json.Number, the last of repeated keys, what follows the object
// ignored); ok is false for anything else, valid or not, which
// decodeJSON then reads.
func flatJSON(s string) (map[string]any, bool) {
	i := skipWS(s, 0)
	if i >= len(s) || s[i] != '{' {
		return nil, false
	}
	m := map[string]any{}
	if i = skipWS(s, i+1); i < len(s) && s[i] == '}' {
		return m, true
	}
	for {
		k, j, ok := jsonString(s, i)
		if j = skipWS(s, j); !ok || j >= len(s) || s[j] != ':' {
			return nil, false
		}
		v, j, ok := jsonValue(s, skipWS(s, j+1))
		if j = skipWS(s, j); !ok || j >= len(s) {
			return nil, false
		}
		m[k] = v
		switch s[j] {
		case '}':
			return m, true
		case ',':
			i = skipWS(s, j+1)
		default:
			return nil, false
		}
	}
}

// skipWS skips JSON white space from i.
func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// jsonString reads the string at i: printable ASCII, no escapes.
func jsonString(s string, i int) (string, int, bool) {
	if i >= len(s) || s[i] != '"' {
		return "", i, false
	}
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return s[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", j, false
		}
	}
	return "", len(s), false
}

// jsonValue reads a number, a plain string, true, false or null at i.
func jsonValue(s string, i int) (any, int, bool) {
	if i >= len(s) {
		return nil, i, false
	}
	switch c := s[i]; {
	case c == '"':
		return jsonString(s, i)
	case c == '-' || c >= '0' && c <= '9':
		j, ok := jsonNumber(s, i)
		return json.Number(s[i:j]), j, ok
	}
	for _, w := range []struct {
		lit string
		v   any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(s)-i >= len(w.lit) && s[i:i+len(w.lit)] == w.lit {
			return w.v, i + len(w.lit), true
		}
	}
	return nil, i, false
}

// jsonNumber is the end of the JSON number at i: -? (0 | [1-9][0-9]*)
// (. [0-9]+)? ([eE] [+-]? [0-9]+)?.
func jsonNumber(s string, i int) (int, bool) {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		if j := digits(s, i+1); j > i+1 {
			i = j
		} else {
			return i, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return i, false
		}
		i = j
	}
	return i, true
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
