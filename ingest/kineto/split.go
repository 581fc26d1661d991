package kineto

import (
	"errors"
	"fmt"
	"io"
	"strconv"
)

// splitter streams a Chrome-trace JSON document and hands out the raw bytes
// of each element of its top-level "traceEvents" array, wherever the key
// sits, plus the raw values of the other top-level keys it is asked for.
// It checks structure only (brackets, strings); the decoder validates each
// element. Memory is one buffer that grows to the largest single element.
type splitter struct {
	r    io.Reader
	buf  []byte
	pos  int   // next unread byte in buf
	end  int   // end of valid data in buf
	base int64 // stream offset of buf[0]
	eof  bool
	rerr error // read error other than io.EOF
	mark int   // start of the value being scanned; bytes from here are kept
	over bool  // the value being scanned passed maxElement: its bytes are dropped
}

// syntaxError is a structural error at a byte offset of the JSON text.
type syntaxError struct {
	Offset int64
	Msg    string
}

func (e *syntaxError) Error() string { return e.Msg }

// splitBuf is the splitter's first buffer size.
const splitBuf = 256 << 10

func newSplitter(r io.Reader) *splitter { return newSplitterBuf(r, nil) }

// newSplitterBuf is newSplitter reading into buf (its whole capacity; a
// new one when it is smaller than splitBuf).
func newSplitterBuf(r io.Reader, buf []byte) *splitter {
	if cap(buf) < splitBuf {
		buf = make([]byte, splitBuf)
	}
	return &splitter{r: r, buf: buf[:cap(buf)], mark: -1}
}

// offset is the stream offset of the next unread byte.
func (s *splitter) offset() int64 { return s.base + int64(s.pos) }

func (s *splitter) errorf(format string, args ...any) error {
	if s.rerr != nil {
		return &syntaxError{s.offset(), fmt.Sprintf("read error: %v", s.rerr)}
	}
	return &syntaxError{s.offset(), fmt.Sprintf(format, args...)}
}

// fill reads more input, keeping bytes from mark (or pos) on. It returns
// false at the end of input.
func (s *splitter) fill() bool {
	if s.eof {
		return false
	}
	keep := s.pos
	if s.mark >= 0 && s.end-s.mark >= maxElement {
		s.over, s.mark = true, -1 // scan the rest of the value without keeping it
	}
	if s.mark >= 0 {
		keep = s.mark
	}
	if s.over {
		keep = max(s.pos-1024, 0) // enough for escaped() to count backslashes
	}
	s.compact(keep)
	n, err := io.ReadAtLeast(s.r, s.buf[s.end:], 1)
	s.end += n
	if err != nil {
		s.eof = true
		if !errors.Is(err, io.EOF) {
			s.rerr = err
		}
	}
	return n > 0
}

// compact moves buf[keep:end] to the front and grows buf when it is full.
func (s *splitter) compact(keep int) {
	if keep > 0 {
		copy(s.buf, s.buf[keep:s.end])
		s.base += int64(keep)
		s.end -= keep
		s.pos -= keep
		if s.mark >= 0 {
			s.mark -= keep
		}
	}
	if s.end == len(s.buf) {
		nb := make([]byte, 2*len(s.buf))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
}

// peek skips white space and returns the next byte without consuming it.
func (s *splitter) peek() (byte, bool) {
	for {
		for s.pos < s.end {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c, true
			}
		}
		if !s.fill() {
			return 0, false
		}
	}
}

// expect consumes byte c after white space.
func (s *splitter) expect(c byte) error {
	got, ok := s.peek()
	if !ok {
		return s.errorf("unexpected end of input, want %q", c)
	}
	if got != c {
		return s.errorf("unexpected %q, want %q", got, c)
	}
	s.pos++
	return nil
}

// value scans one JSON value and returns its bytes, valid until the next
// call, and its stream offset.
func (s *splitter) value() ([]byte, int64, error) {
	c, ok := s.peek()
	if !ok {
		return nil, s.offset(), s.errorf("unexpected end of input, want a value")
	}
	s.mark = s.pos
	off := s.offset()
	var err error
	switch c {
	case '{', '[':
		err = s.scanNested()
	case '"':
		s.pos++
		err = s.scanString()
	case ']', '}', ',', ':':
		err = s.errorf("unexpected %q, want a value", c)
	default:
		err = s.scanLiteral()
	}
	if s.over {
		s.over, s.mark = false, -1
		if err == nil {
			err = &oversize{off}
		}
		return nil, off, err
	}
	v := s.buf[s.mark:s.pos]
	s.mark = -1
	return v, off, err
}

// handler receives what the splitter finds.
type handler interface {
	// decode decodes the traceEvents element at the start of b and returns
	// its length. With whole, b is one element the splitter has cut;
	// otherwise b is the unread buffer, and an error (the element does not
	// end inside b, or is not a well-formed object) makes the splitter
	// cut the element and call decode again with whole.
	decode(b []byte, whole bool) (int, error)
	// event gets the element decode was last given, its stream offset and
	// decode's error.
	event(raw []byte, off int64, derr error) error
	// meta gets the value of another top-level key.
	meta(key string, raw []byte, off int64) error
	// oversized is told of an element or value larger than maxElement,
	// scanned but not kept.
	oversized(what string, off int64)
}

// errNoEvents says the document has no "traceEvents" array.
var errNoEvents = errors.New("no \"traceEvents\" array: not a Chrome trace")

// run walks the top-level object and feeds h.
func (s *splitter) run(h handler) error {
	if c, ok := s.peek(); ok && c == '[' {
		return s.events(h) // the bare-array form of the Chrome trace format
	}
	if err := s.expect('{'); err != nil {
		return err
	}
	seen, err := s.members(h)
	if err == nil && !seen {
		err = errNoEvents
	}
	return err
}

// members reads the members of the top-level object up to its closing
// brace and reports whether traceEvents was among them.
func (s *splitter) members(h handler) (bool, error) {
	seen := false
	for first := true; ; first = false {
		c, ok := s.peek()
		switch {
		case !ok:
			return seen, s.errorf("unexpected end of input in the top-level object")
		case c == '}':
			s.pos++
			return seen, nil
		case !first && c != ',':
			return seen, s.errorf("unexpected %q, want ','", c)
		case !first:
			s.pos++
		}
		isEvents, err := s.member(h)
		if err != nil {
			return seen, err
		}
		seen = seen || isEvents
	}
}

// member reads one "key": value pair of the top-level object.
func (s *splitter) member(h handler) (bool, error) {
	raw, _, err := s.value()
	if err != nil {
		return false, err
	}
	if len(raw) < 2 || raw[0] != '"' {
		return false, s.errorf("want an object key")
	}
	key := string(raw[1 : len(raw)-1])
	if err := s.expect(':'); err != nil {
		return false, err
	}
	if key == "traceEvents" {
		return true, s.events(h)
	}
	raw, off, err := s.value()
	var ov *oversize
	if errors.As(err, &ov) {
		h.oversized("top-level value "+strconv.Quote(firstLine(key)), off)
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return false, h.meta(key, raw, off)
}

// events reads the traceEvents array.
func (s *splitter) events(h handler) error {
	if err := s.expect('['); err != nil {
		return err
	}
	for first := true; ; first = false {
		if !first && s.nextElement() {
			if err := s.element(h); err != nil {
				return err
			}
			continue
		}
		c, ok := s.peek()
		if !ok {
			return s.errorf("unexpected end of input in traceEvents")
		}
		if c == ']' {
			s.pos++
			return nil
		}
		if !first {
			if err := s.expect(','); err != nil {
				return err
			}
			if c, ok := s.peek(); ok && c == ']' {
				continue // a trailing comma, as some writers leave
			}
		}
		if err := s.element(h); err != nil {
			return err
		}
	}
}

// nextElement moves past the `,` and white space before the next element
// when they are in the buffer and an object follows (most elements), the
// bytes peek and expect would read.
func (s *splitter) nextElement() bool {
	b := s.buf[:s.end]
	if s.pos >= len(b) || b[s.pos] != ',' {
		return false
	}
	if j := skipWS(b, s.pos+1); j < len(b) && b[j] == '{' {
		s.pos = j
		return true
	}
	return false
}

// element decodes one traceEvents element where it lies in the buffer: one
// pass over its bytes. An element that does not end in the buffer, is
// malformed or too large is cut by value first (which reads more, keeps the
// limits and gives the structural errors) and then decoded.
func (s *splitter) element(h handler) error {
	if n, err := h.decode(s.buf[s.pos:s.end], false); err == nil && n < maxElement {
		raw, off := s.buf[s.pos:s.pos+n], s.offset()
		s.pos += n
		return h.event(raw, off, nil)
	}
	raw, off, err := s.value()
	var ov *oversize
	if errors.As(err, &ov) {
		h.oversized("traceEvents element", off)
		return nil
	}
	if err != nil {
		return err
	}
	_, derr := h.decode(raw, true)
	return h.event(raw, off, derr)
}
