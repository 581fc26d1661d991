package nccl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// MaxLine is the longest line the text readers keep; a longer one is
// skipped on its own, with its line number, and reading goes on.
const MaxLine = 1 << 20

// LongLine is the skip reason of a line past MaxLine.
var LongLine = fmt.Sprintf("line longer than %d bytes: skipped", MaxLine)

// MaxRanks is the most ranks a communicator may have: a larger rank or
// nranks in a line is a corrupt line, skipped (docs/limits.md).
const MaxRanks = 1 << 20

// LineSkip is one unreadable line.
type LineSkip struct {
	Line   int64
	Reason string
}

// memEvery is how many lines are read between checks of the memory budget.
const memEvery = 4096

// EachLine calls line for every line of r (without its "\n" or "\r\n") and
// long for every line past MaxLine, with 1-based line numbers. Every
// memEvery lines it checks the memory budget maxMem (0: none) and stops
// with an error wrapping source.ErrMemoryBudget when it is exceeded.
func EachLine(r io.Reader, maxMem int64, line func(n int64, s string), long func(n int64)) error {
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() { br.Reset(nil); readers.Put(br) }()
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
		if err == nil && n%memEvery == 0 {
			err = source.CheckMemory(maxMem)
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
}

// readers are EachLine's MaxLine buffers, one a file read at once rather
// than a new MiB a file (512 Flight Recorder dumps or profiler traces of
// a few lines each were 512 MiB of allocations, the most of their read,
// more so on several goroutines: the heap's lock and the collector).
// line is given copies, so nothing read points into them.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, MaxLine) }}

// trimEOL is b without its "\n" or "\r\n", as a string.
func trimEOL(b []byte) string {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return string(b)
}
