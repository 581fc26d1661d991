package perfetto

import (
	"strconv"
	"unicode/utf8"
)

// obj appends one JSON object to a buffer, field by field.
type obj struct {
	b     []byte
	empty bool
}

func newObj(b []byte) *obj { return &obj{b: append(b, '{'), empty: true} }

func (o *obj) key(k string) {
	if !o.empty {
		o.b = append(o.b, ',')
	}
	o.empty = false
	o.b = appendString(o.b, k)
	o.b = append(o.b, ':')
}

func (o *obj) str(k, v string) *obj { o.key(k); o.b = appendString(o.b, v); return o }
func (o *obj) int(k string, v int64) *obj {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
	return o
}

// us writes nanoseconds as microseconds with exactly three decimals, so no
// precision is lost to floating point.
func (o *obj) us(k string, ns int64) *obj {
	o.key(k)
	if ns < 0 {
		o.b, ns = append(o.b, '-'), -ns
	}
	o.b = strconv.AppendInt(o.b, ns/1000, 10)
	frac := ns % 1000
	o.b = append(o.b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
	return o
}

// raw writes an already encoded value (a nested object or array).
func (o *obj) raw(k string, v []byte) *obj { o.key(k); o.b = append(o.b, v...); return o }

func (o *obj) done() []byte { return append(o.b, '}') }

// strings encodes a JSON array of strings.
func strings(vs []string) []byte {
	b := []byte{'['}
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, v)
	}
	return append(b, ']')
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			b = utf8.AppendRune(b, r)
			i += n
			continue
		}
		i++
	}
	return append(b, '"')
}
