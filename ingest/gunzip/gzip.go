package gunzip

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/gzip"
)

// Reader reads the uncompressed bytes of a gzip file held in memory (every
// member, as gzip.Reader in its default multistream mode). Reset it to a
// file, then Read; a Reader and its window are reused from file to file.
type Reader struct {
	in   []byte
	f    inflater
	r    int    // the next byte of f.win to hand out
	crc  uint32 // of the member's output so far
	size uint32 // its length, modulo 2^32
	out  int64  // bytes handed out, every member
	done bool   // every member read and checked

	src   io.Reader                 // the file's rest, when it streams (ResetStream)
	again func() (io.Reader, error) // the file from its start again, to hand it over
	buf   []byte                    // in's storage when it streams

	other   *gzip.Reader // klauspost's, once the file is handed over
	handErr error        // what handing over failed with
	handed  bool
}

// Reset starts reading the gzip file in. Like gzip.Reader.Reset it reads
// the first member's header and returns its error.
func (z *Reader) Reset(in []byte) error {
	z.src, z.again = nil, nil
	return z.reset(in, false)
}

// reset starts reading the file whose first bytes are in (and more to
// come from z.src when more).
func (z *Reader) reset(in []byte, more bool) error {
	z.in, z.r, z.out, z.done, z.handed, z.handErr = in, 0, 0, false, false, nil
	z.f.w, z.f.in, z.f.pos, z.f.more = 0, in, 0, more
	z.ensure()
	p, ok := headerEnd(z.in, 0)
	if !ok {
		return z.handOver()
	}
	z.startMember(p)
	return nil
}

// startMember begins the member whose deflate stream starts at in[p:].
func (z *Reader) startMember(p int) {
	z.crc, z.size = 0, 0
	z.f.start(z.in, p)
}

// Read reads uncompressed bytes into p.
func (z *Reader) Read(p []byte) (int, error) {
	for {
		if z.handed {
			return z.readOther(p)
		}
		if z.r < z.f.w {
			n := copy(p, z.f.win[z.r:z.f.w])
			z.r += n
			z.out += int64(n)
			return n, nil
		}
		if z.done {
			return 0, io.EOF
		}
		if !z.decode() {
			if err := z.handOver(); err != nil {
				if err == io.EOF { // the file read again is empty: not an end here
					err = io.ErrUnexpectedEOF
				}
				z.handErr = err
				return 0, err
			}
		}
	}
}

// decode fills the window with more output (after sliding it), checks a
// member's trailer when its stream ends and starts the next member;
// false when the file must be handed over.
func (z *Reader) decode() bool {
	z.f.slide()
	z.r = min(z.r, z.f.w)
	w0 := z.f.w
	z.ensure()
	err := z.f.fill()
	z.crc = crc32.Update(z.crc, crc32.IEEETable, z.f.win[w0:z.f.w])
	z.size += uint32(z.f.w - w0)
	if err != nil {
		return false
	}
	if z.f.state != stDone {
		return true
	}
	return z.endMember()
}

// endMember checks the member's trailer and starts the next member, or
// ends the file when no byte follows.
func (z *Reader) endMember() bool {
	z.f.bytePos()
	z.ensure()
	p := z.f.pos
	if p+8 > len(z.in) || binary.LittleEndian.Uint32(z.in[p:]) != z.crc || binary.LittleEndian.Uint32(z.in[p+4:]) != z.size {
		return false
	}
	if p += 8; p == len(z.in) {
		z.done = true
		return true
	}
	next, ok := headerEnd(z.in, p)
	if ok {
		z.startMember(next)
	}
	return ok
}

// handOver gives the file to klauspost's reader, which reads it again
// from its start and skips the bytes already handed out; from then on Read
// is that reader's. It returns the header error of Reset, if any, or the
// error of reading the file again.
func (z *Reader) handOver() error {
	z.handed = true
	src, err := z.restart()
	if err == nil && z.other == nil {
		z.other, err = gzip.NewReader(src)
	} else if err == nil {
		err = z.other.Reset(src)
	}
	if err != nil {
		z.handErr = err
		return err
	}
	if _, err := io.CopyN(io.Discard, z.other, z.out); err != nil {
		if err == io.EOF {
			err = fmt.Errorf("gunzip: the file ends before byte %d of its output", z.out)
		}
		z.handErr = err
		return err
	}
	return nil
}

// readOther reads from the reader the file was handed over to.
func (z *Reader) readOther(p []byte) (int, error) {
	if z.handErr != nil {
		return 0, z.handErr
	}
	return z.other.Read(p)
}
