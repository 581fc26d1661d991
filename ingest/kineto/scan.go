package kineto

import "bytes"

// scanString consumes a string body up to and including its closing quote.
func (s *splitter) scanString() error {
	for {
		i := bytes.IndexByte(s.buf[s.pos:s.end], '"')
		if i < 0 {
			s.pos = s.end
			if !s.fill() {
				return s.errorf("unexpected end of input inside a string")
			}
			continue
		}
		q := s.pos + i
		s.pos = q + 1
		if !escaped(s.buf[:q]) {
			return nil
		}
	}
}

// escaped reports whether the quote after b is escaped by an odd number of
// backslashes.
func escaped(b []byte) bool {
	n := 0
	for i := len(b) - 1; i >= 0 && b[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// structural marks the bytes scanNested stops at.
var structural = [256]byte{'"': 1, '{': 1, '[': 1, '}': 1, ']': 1}

// scanNested consumes an object or array, tracking nesting and strings.
func (s *splitter) scanNested() error {
	var stack [64]byte
	depth := 0
	for {
		if s.pos == s.end && !s.fill() {
			return s.errorf("unexpected end of input inside a value")
		}
		b := s.buf[s.pos:s.end]
		i := 0
		for i < len(b) && structural[b[i]] == 0 { // most bytes: skip them in a tight loop
			i++
		}
		s.pos += i
		if i == len(b) {
			continue
		}
		c := b[i]
		s.pos++
		switch c {
		case '"':
			if err := s.scanString(); err != nil {
				return err
			}
		case '{', '[':
			if depth == len(stack) {
				return s.errorf("nesting deeper than %d", len(stack))
			}
			stack[depth] = c + 2 // '{'+2 == '}', '['+2 == ']'
			depth++
		case '}', ']':
			if depth == 0 || stack[depth-1] != c {
				s.pos--
				return s.errorf("unexpected %q", c)
			}
			depth--
			if depth == 0 {
				return nil
			}
		}
	}
}

// scanLiteral consumes a number, true, false or null.
func (s *splitter) scanLiteral() error {
	for {
		for s.pos < s.end {
			switch s.buf[s.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r', ':', '"', '{', '[':
				return nil
			}
			s.pos++
		}
		if !s.fill() {
			return nil
		}
	}
}
