package gunzip

import (
	"bytes"
	"io"
)

// A streamed file is read into a buffer of bufSize bytes; the inflater
// stops while fewer than reserve are left in it, so that the Reader loads
// more first. reserve is more than any one step of fill reads: a Huffman
// step writes at most the window's chunk and a match (262,414 bytes) at
// 15 bits a byte at most (about 492 KB), a block header or a stored step
// less, and a member's trailer and the next header at most 66,600. (A
// step that did run out would read zeros past the buffer, find the file
// truncated and hand it over: slower, the same bytes.)
const (
	bufSize = 2 << 20
	reserve = 576 << 10
)

// ResetStream starts reading the gzip file src yields, from its start;
// again yields the file from its start once more, for klauspost's reader
// when the file is handed over (its read errors are then the ones a caller
// sees). Like Reset it reads the first member's header.
func (z *Reader) ResetStream(src io.Reader, again func() (io.Reader, error)) error {
	if z.buf == nil {
		z.buf = make([]byte, bufSize)
	}
	z.src, z.again = src, again
	return z.reset(z.buf[:0], true)
}

// ensure loads more of a streamed file when fewer than reserve bytes are
// left after the inflater's position: it moves the rest (and the eight
// bytes before it, which the bit buffer may give back) to the buffer's
// start and reads until the buffer is full or the file ends. A read error
// ends the input like the file's end; handed over, the file is read again
// and the error is klauspost's.
func (z *Reader) ensure() {
	f := &z.f
	if !f.more || len(f.in)-f.pos >= reserve {
		return
	}
	from := max(f.pos-8, 0)
	n := copy(z.buf, f.in[from:])
	k, err := io.ReadFull(z.src, z.buf[n:])
	if err != nil {
		f.more = false
	}
	z.in = z.buf[:n+k]
	f.in, f.pos = z.in, f.pos-from
}

// restart yields the file from its start for handing it over.
func (z *Reader) restart() (io.Reader, error) {
	if z.src == nil {
		return bytes.NewReader(z.in), nil
	}
	return z.again()
}
