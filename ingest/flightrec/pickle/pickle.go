package pickle

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Tuple is a decoded Python tuple.
type Tuple []any

// Limits bound what one stream may allocate; the zero value means defaults.
type Limits struct {
	MaxDepth  int   // nesting of MARKs and containers (default 1000)
	MaxItems  int   // values on the stack plus memo entries (default 1<<24)
	MaxStrLen int64 // one string or bytes value (default 1<<28)
	// MaxExpanded bounds the values of the result counted as if every
	// memoised (shared) value were copied at each reference (default 1<<25).
	MaxExpanded int64
}

// Error is a decoding error at a byte offset.
type Error struct {
	Offset int64
	Err    error
}

func (e *Error) Error() string { return fmt.Sprintf("pickle: byte %d: %v", e.Offset, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// ErrForbidden is wrapped by errors about opcodes that could execute code.
var ErrForbidden = errors.New("forbidden opcode")

// Decode reads one pickled value from r.
func Decode(r io.Reader) (any, error) { return DecodeLimits(r, Limits{}) }

// DecodeBytes decodes one pickled value held in b.
func DecodeBytes(b []byte) (any, error) { return Decode(bytes.NewReader(b)) }

// DecodeLimits is Decode with explicit limits.
func DecodeLimits(r io.Reader, lim Limits) (any, error) {
	d := newDecoder(r, lim)
	v, err := d.run()
	if err != nil {
		return nil, &Error{Offset: d.opPos, Err: err}
	}
	return v, nil
}

type mark struct{}

type decoder struct {
	r     *bufio.Reader
	lim   Limits
	pos   int64 // bytes consumed
	opPos int64 // offset of the current opcode
	stack []any
	marks []int
	memo  map[uint32]any
}

func newDecoder(r io.Reader, lim Limits) *decoder {
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = 1000
	}
	if lim.MaxItems <= 0 {
		lim.MaxItems = 1 << 24
	}
	if lim.MaxStrLen <= 0 {
		lim.MaxStrLen = 1 << 28
	}
	if lim.MaxExpanded <= 0 {
		lim.MaxExpanded = 1 << 25
	}
	return &decoder{r: bufio.NewReader(r), lim: lim, memo: map[uint32]any{}}
}

func (d *decoder) run() (any, error) {
	for {
		d.opPos = d.pos
		op, err := d.byte()
		if err != nil {
			return nil, err
		}
		if op == opStop {
			return d.stop()
		}
		if err := d.exec(op); err != nil {
			return nil, err
		}
		if len(d.stack)+len(d.memo) > d.lim.MaxItems {
			return nil, fmt.Errorf("more than %d values", d.lim.MaxItems)
		}
	}
}

func (d *decoder) stop() (any, error) {
	if len(d.stack) != 1 || len(d.marks) != 0 {
		return nil, fmt.Errorf("STOP with %d values and %d marks on the stack", len(d.stack), len(d.marks))
	}
	if _, ok := d.stack[0].(mark); ok {
		return nil, errors.New("STOP with a mark on the stack")
	}
	return finalize(d.stack[0], d.lim)
}

func (d *decoder) byte() (byte, error) {
	b, err := d.r.ReadByte()
	if err != nil {
		return 0, truncated(err)
	}
	d.pos++
	return b, nil
}

func (d *decoder) bytes(n int64) ([]byte, error) {
	if n < 0 || n > d.lim.MaxStrLen {
		return nil, fmt.Errorf("length %d out of bounds", n)
	}
	b, err := readN(d.r, n)
	d.pos += int64(len(b))
	if err != nil {
		return nil, truncated(err)
	}
	return b, nil
}

// readN reads n bytes: at once when n is small, else in a growing buffer,
// so that a length field that lies costs no more memory than the input.
func readN(r io.Reader, n int64) ([]byte, error) {
	if n <= 1<<16 {
		b := make([]byte, n)
		m, err := io.ReadFull(r, b)
		if err == io.EOF && n > 0 {
			err = io.ErrUnexpectedEOF
		}
		return b[:m], err
	}
	buf := bytes.NewBuffer(make([]byte, 0, 1<<16))
	m, err := io.CopyN(buf, r, n)
	if err == nil && m < n {
		err = io.ErrUnexpectedEOF
	}
	return buf.Bytes(), err
}

func truncated(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

func (d *decoder) push(v any) { d.stack = append(d.stack, v) }

func (d *decoder) pop() (any, error) {
	n := len(d.stack)
	if n == 0 || d.topIsMarkBoundary() {
		return nil, errors.New("stack underflow")
	}
	v := d.stack[n-1]
	d.stack = d.stack[:n-1]
	return v, nil
}

// topIsMarkBoundary reports whether the stack above the last mark is empty.
func (d *decoder) topIsMarkBoundary() bool {
	return len(d.marks) > 0 && d.marks[len(d.marks)-1] == len(d.stack)
}

func (d *decoder) top() (any, error) {
	v, err := d.pop()
	if err == nil {
		d.push(v)
	}
	return v, err
}

func (d *decoder) pushMark() error {
	if len(d.marks) >= d.lim.MaxDepth {
		return fmt.Errorf("nesting deeper than %d", d.lim.MaxDepth)
	}
	d.marks = append(d.marks, len(d.stack))
	return nil
}

// popMark returns the values above the last mark and removes them.
func (d *decoder) popMark() ([]any, error) {
	if len(d.marks) == 0 {
		return nil, errors.New("no mark on the stack")
	}
	m := d.marks[len(d.marks)-1]
	d.marks = d.marks[:len(d.marks)-1]
	items := append([]any(nil), d.stack[m:]...)
	d.stack = d.stack[:m]
	return items, nil
}
