package gunzip

import (
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/gzip"
)

// bigPayload is more than a stream buffer of text that compresses little
// and much by turns, so that a streamed file loads its buffer several
// times and stops for input in Huffman, stored and fixed blocks.
func bigPayload() []byte {
	p := payloads()
	var b []byte
	for len(b) < 5<<20 {
		b = append(b, p["random"]...)
		b = append(b, p["json"][:700<<10]...)
	}
	return b
}

// The ways a stream may come: whole, a byte a read, half of each read.
var sources = map[string]func(io.Reader) io.Reader{
	"whole": func(r io.Reader) io.Reader { return r },
	"byte":  iotest.OneByteReader,
	"half":  iotest.HalfReader,
}

// streamed reads gz as a stream that src makes of it.
func streamed(z *Reader, gz []byte, src func(io.Reader) io.Reader, n int) (outcome, error) {
	again := func() (io.Reader, error) { return src(bytes.NewReader(gz)), nil }
	if err := z.ResetStream(src(bytes.NewReader(gz)), again); err != nil {
		return outcome{err: "reset: " + err.Error()}, nil
	}
	return outcomeOf(readAll(z, n)), nil
}

// TestStreamDecodesWithoutHandingOver: as TestDecodesWithoutHandingOver,
// for files read as streams however their reads come, one of them longer
// than the stream's buffer.
func TestStreamDecodesWithoutHandingOver(t *testing.T) {
	var z Reader
	all := payloads()
	all["big"] = bigPayload()
	for name, data := range all {
		for _, c := range compressors() {
			gz := gzipped(t, c, data)
			for sname, src := range sources {
				if sname == "byte" && name != "big" && name != "json" {
					continue // (the others are read whole by the first load)
				}
				o, _ := streamed(&z, gz, src, 4093)
				if o.err != "" || !bytes.Equal(o.out, data) || z.handed {
					t.Fatalf("%s %s %s: %d bytes (want %d), %q, handed %v", name, c.name, sname, len(o.out), len(data), o.err, z.handed)
				}
			}
		}
	}
}

// agreeStream fails t unless reading gz as a stream gives the bytes and
// the error klauspost's reader gives it.
func agreeStream(t *testing.T, z *Reader, what string, gz []byte, src func(io.Reader) io.Reader) {
	t.Helper()
	a, _ := streamed(z, gz, src, 4096)
	b := theirs(gz)
	if a.err != b.err || !bytes.Equal(a.out, b.out) {
		t.Fatalf("%s: ours %d bytes, %q; klauspost's %d bytes, %q", what, len(a.out), a.err, len(b.out), b.err)
	}
}

// TestStreamAgreesOnDamage: every truncation of a small file, and
// truncations and flipped bytes of a file longer than the stream's buffer
// around where its loads fall, agree with klauspost's reader.
func TestStreamAgreesOnDamage(t *testing.T) {
	var z Reader
	cs := compressors()
	small := gzipped(t, cs[2], payloads()["json"][:3000])
	for n := range len(small) {
		agreeStream(t, &z, "small truncated", small[:n], sources["half"])
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []compressor{cs[0], cs[2], cs[6]} {
		gz := gzipped(t, c, bigPayload())
		for range 20 {
			at := rng.IntN(len(gz))
			if rng.IntN(3) == 0 { // near the end of a first or second load
				at = min(len(gz)-1, bufSize*(1+rng.IntN(2))-reserve+rng.IntN(64)-32)
			}
			agreeStream(t, &z, c.name+" truncated", gz[:at], sources["whole"])
			bad := append([]byte{}, gz...)
			bad[at] ^= byte(1 + rng.IntN(255))
			agreeStream(t, &z, c.name+" flipped", bad, sources["half"])
		}
	}
}

// TestStreamReadError: a read error of the file ends it with that error,
// as klauspost's reader ends it, after the same bytes.
func TestStreamReadError(t *testing.T) {
	boom := errors.New("boom")
	gz := gzipped(t, compressors()[2], bigPayload())
	for _, at := range []int{5, len(gz) / 2, len(gz) - 3} {
		src := func(io.Reader) io.Reader {
			return io.MultiReader(bytes.NewReader(gz[:at]), iotest.ErrReader(boom))
		}
		var z Reader
		a, _ := streamed(&z, gz, src, 4096)
		zr, err := gzip.NewReader(src(nil))
		b := outcome{err: "reset: " + errString(err)}
		if err == nil {
			b = outcomeOf(readAll(zr, 4096))
		}
		if a.err != b.err || !bytes.Equal(a.out, b.out) || a.err == "" {
			t.Fatalf("error at %d: ours %d bytes, %q; klauspost's %d bytes, %q", at, len(a.out), a.err, len(b.out), b.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// FuzzStreamAgrees: any input read as a stream a byte a read gives the
// bytes and the error klauspost's reader gives.
func FuzzStreamAgrees(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, gz []byte) {
		var z Reader
		agreeStream(t, &z, "fuzz", gz, sources["byte"])
	})
}

// emptyBlocks is a gzip file of data (stored) after n empty stored blocks,
// input that gives no output for megabytes (as a flush after every write).
func emptyBlocks(n int, data []byte) []byte {
	gz := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}
	for range n {
		gz = append(gz, 0, 0, 0, 0xff, 0xff) // not final, stored, length 0
	}
	gz = append(gz, 1, byte(len(data)), byte(len(data)>>8), ^byte(len(data)), ^byte(len(data)>>8))
	gz = append(gz, data...)
	crc, size := crc32.ChecksumIEEE(data), uint32(len(data))
	return append(gz, byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24), byte(size), byte(size>>8), byte(size>>16), byte(size>>24))
}

// TestStreamEmptyBlocks: input without output longer than the stream's
// buffer is read here, not handed over (the inflater stops for input
// between blocks, not only when the window is full).
func TestStreamEmptyBlocks(t *testing.T) {
	data := []byte("the data after the empty blocks")
	gz := emptyBlocks(3*bufSize/5, data)
	if b := theirs(gz); b.err != "" || !bytes.Equal(b.out, data) {
		t.Fatalf("klauspost's reader: %q, %q", b.out, b.err)
	}
	var z Reader
	o, _ := streamed(&z, gz, sources["whole"], 4096)
	if o.err != "" || !bytes.Equal(o.out, data) || z.handed {
		t.Fatalf("%q, %q, handed %v", o.out, o.err, z.handed)
	}
}

// TestEnsureKeepsLoadedBytes: loading more input keeps the bytes the bit
// buffer holds, which the start of a stored block gives back.
func TestEnsureKeepsLoadedBytes(t *testing.T) {
	in := make([]byte, bufSize)
	for i := range in {
		in[i] = byte(i * 7)
	}
	var z Reader
	z.buf = make([]byte, bufSize)
	copy(z.buf, in)
	z.src = bytes.NewReader(nil)
	z.in = z.buf
	f := &z.f
	f.in, f.more = z.in, true
	f.pos = len(in) - 100
	f.refill()                    // six or seven bytes into the bit buffer
	f.take(3)                     // a block header's bits
	want := in[f.pos-int(f.nb/8)] // (the rest of the header's byte is dropped)
	z.ensure()
	if p := f.bytePos(); p < 0 || p >= len(z.in) || z.in[p] != want {
		t.Fatalf("after loading, the next byte is at %d of %d, want the byte %d", p, len(z.in), want)
	}
}

// TestStreamHandedOverEmpty: a file that reads again as nothing (it was
// cut since) ends the text with an error, not as if it were whole.
func TestStreamHandedOverEmpty(t *testing.T) {
	gz := gzipped(t, compressors()[2], bigPayload())
	gz[len(gz)/2] ^= 0x55
	var z Reader
	err := z.ResetStream(bytes.NewReader(gz), func() (io.Reader, error) { return bytes.NewReader(nil), nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readAll(&z, 4096); err == nil {
		t.Fatal("no error")
	}
}
