package nccl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// maxLine is the longest line the text readers keep; a longer one is
// skipped on its own, with its line number, and reading goes on.
const maxLine = 1 << 20

// longLine is the skip reason of a line past maxLine.
var longLine = fmt.Sprintf("line longer than %d bytes: skipped", maxLine)

// eachLine calls line for every line of r (without its "\n" or "\r\n") and
// long for every line past maxLine, with 1-based line numbers.
func eachLine(r io.Reader, line func(n int64, s string), long func(n int64)) error {
	br := bufio.NewReaderSize(r, maxLine)
	for n := int64(1); ; n++ {
		b, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long(n)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
		} else if len(b) > 0 {
			line(n, trimEOL(b))
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
}

func trimEOL(b []byte) string {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return string(b)
}
