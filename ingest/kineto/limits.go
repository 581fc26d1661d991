package kineto

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// Limits on one trace file, so that a small hostile file cannot take
// unbounded memory (docs/limits.md). Past them an element is skipped, a
// string cut, or the file rejected, always with a record naming the file
// and the byte offset.
const (
	maxElement   = 64 << 20 // bytes of one traceEvents element or top-level value
	maxString    = 16 << 10 // bytes of a name, category or label kept
	maxRatio     = 200      // decompressed / compressed bytes of a .gz file
	ratioSlack   = 64 << 20 // decompressed bytes always allowed
	oversizeNote = "larger than 64 MiB: not read"
)

// maxEvents bounds the traceEvents elements of one file (a variable for tests).
var maxEvents = 1 << 24

// oversize says the value at Offset was larger than maxElement; its bytes
// were scanned, not kept.
type oversize struct{ Offset int64 }

func (e *oversize) Error() string { return fmt.Sprintf("a value %s", oversizeNote) }

// clip cuts *s to maxString bytes (at a rune boundary), recording it.
func (f *fileReader) clip(s *string, what string, off int64) {
	if len(*s) <= maxString {
		return
	}
	n := maxString
	for n > 0 && !utf8.RuneStart((*s)[n]) {
		n--
	}
	*s = (*s)[:n] + "…"
	f.skip(fmt.Sprintf("%s longer than %d bytes: cut", what, maxString), off)
}

// oversized records a skipped element or top-level value.
func (f *fileReader) oversized(what string, off int64) {
	f.skip(what+" "+oversizeNote, off)
}

// ratioReader refuses a gzip stream that expands more than maxRatio times
// the compressed bytes read so far (plus ratioSlack): a decompression bomb.
type ratioReader struct {
	r   io.Reader
	in  *countReader
	out int64
}

func (z *ratioReader) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	z.out += int64(n)
	if z.out > maxRatio*z.in.n+ratioSlack {
		return n, fmt.Errorf("gzip stream expands more than %d× (%d MiB from %d MiB read): refused as a decompression bomb", maxRatio, z.out>>20, z.in.n>>20)
	}
	return n, err
}

// clipEvent cuts the event's strings to maxString bytes.
func (f *fileReader) clipEvent(off int64) {
	a := &f.ev.Args
	if max(len(f.ev.Name), len(f.ev.Cat), len(a.Name), len(a.Labels)) <= maxString {
		return // (nearly every event)
	}
	if len(f.ev.Name) > maxString {
		f.ev.nameEnt = nil // the entry holds the whole name
	}
	f.clip(&f.ev.Name, "event name", off)
	f.clip(&f.ev.Cat, "event category", off)
	f.clip(&f.ev.Args.Name, "thread or process name", off)
	f.clip(&f.ev.Args.Labels, "process labels", off)
}
