package gunzip

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// outcome is what reading a gzip file gives: its bytes and the error that
// ended them ("" at the end of the file).
type outcome struct {
	out []byte
	err string
}

func ours(gz []byte) outcome {
	var z Reader
	if err := z.Reset(gz); err != nil {
		return outcome{err: "reset: " + err.Error()}
	}
	return outcomeOf(readAll(&z, 4096))
}

func theirs(gz []byte) outcome {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return outcome{err: "reset: " + err.Error()}
	}
	return outcomeOf(readAll(zr, 4096))
}

func outcomeOf(out []byte, err error) outcome {
	o := outcome{out: out}
	if err != nil {
		o.err = err.Error()
	}
	return o
}

// agree fails t unless both readers give gz the same bytes and error.
func agree(t *testing.T, what string, gz []byte) {
	t.Helper()
	a, b := ours(gz), theirs(gz)
	if a.err != b.err || !bytes.Equal(a.out, b.out) {
		t.Fatalf("%s: ours %d bytes, %q; klauspost's %d bytes, %q", what, len(a.out), a.err, len(b.out), b.err)
	}
}

// TestAgreesOnDamage: every truncation and every flipped byte of small
// files (dynamic, fixed and stored blocks), and bytes after the last
// member, give the bytes and the error klauspost's reader gives.
func TestAgreesOnDamage(t *testing.T) {
	data := payloads()["json"][:3000]
	cs := compressors()
	for _, c := range []compressor{cs[2], cs[1], cs[5], cs[0]} {
		gz := gzipped(t, c, data)
		for n := range len(gz) {
			agree(t, c.name+" truncated", gz[:n])
		}
		for i := range gz {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				bad := append([]byte{}, gz...)
				bad[i] ^= x
				agree(t, c.name+" flipped", bad)
			}
		}
		for _, tail := range [][]byte{{0}, {0x1f}, {0x1f, 0x8b}, {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0}, []byte("garbage after")} {
			agree(t, c.name+" tail", append(append([]byte{}, gz...), tail...))
		}
	}
}

// FuzzAgrees: any input gives the bytes and the error klauspost's reader
// gives. Seeds: members of each block type, damaged ones, empty input.
func FuzzAgrees(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, gz []byte) {
		agree(t, "fuzz", gz)
	})
}

// addSeeds gives a fuzz target members of each block type, damaged ones,
// two members, an empty input and an empty member.
func addSeeds(f *testing.F) {
	data := payloads()["json"][:2000]
	for _, c := range compressors()[:5] {
		gz := gzipped(f, c, data)
		f.Add(gz)
		f.Add(gz[:len(gz)/2])
		f.Add(append(gz, gz...))
	}
	f.Add([]byte{})
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0})
}
