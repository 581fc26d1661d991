package gunzip

import (
	"bytes"
	stdgzip "compress/gzip"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// payloads are texts of the shapes a decoder meets: empty, one byte, runs
// of one byte (distance-1 matches), profiler-like JSON (long matches),
// random bytes (literals, stored blocks at level 0), and a mix.
func payloads() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 300<<10)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	var js strings.Builder
	for i := range 40_000 {
		fmt.Fprintf(&js, "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%d\", \"pid\": 0, \"tid\": 7, \"ts\": %d.%03d, \"dur\": %d.5},\n", i%37, 1712195495505582+i*7, i%1000, i%300)
	}
	mixed := append(append([]byte(js.String()[:200<<10]), random[:50<<10]...), bytes.Repeat([]byte{' '}, 70<<10)...)
	return map[string][]byte{
		"empty":  {},
		"one":    {'x'},
		"run":    bytes.Repeat([]byte{'a'}, 1<<20),
		"json":   []byte(js.String()),
		"random": random,
		"mixed":  mixed,
	}
}

// compressor writes data gzipped in one of the ways files are written.
type compressor struct {
	name  string
	write func(w io.Writer, data []byte) error
}

func compressors() []compressor {
	var cs []compressor
	for _, l := range []int{gzip.HuffmanOnly, gzip.NoCompression, gzip.BestSpeed, 5, gzip.BestCompression} {
		cs = append(cs, compressor{fmt.Sprintf("klauspost-%d", l), func(w io.Writer, data []byte) error {
			zw, _ := gzip.NewWriterLevel(w, l)
			return writeAll(zw, data)
		}})
	}
	for _, l := range []int{stdgzip.HuffmanOnly, stdgzip.NoCompression, stdgzip.BestSpeed, 6, stdgzip.BestCompression} {
		cs = append(cs, compressor{fmt.Sprintf("std-%d", l), func(w io.Writer, data []byte) error {
			zw, _ := stdgzip.NewWriterLevel(w, l)
			return writeAll(zw, data)
		}})
	}
	return cs
}

func writeAll(zw io.WriteCloser, data []byte) error {
	// several writes with a flush between: sync-flushed stored blocks too
	for len(data) > 0 {
		n := min(len(data), 100<<10)
		if _, err := zw.Write(data[:n]); err != nil {
			return err
		}
		if f, ok := zw.(interface{ Flush() error }); ok && n == 100<<10 {
			_ = f.Flush()
		}
		data = data[n:]
	}
	return zw.Close()
}

func gzipped(t testing.TB, c compressor, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := c.write(&b, data); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// readAll reads r with reads of n bytes, to the first error.
func readAll(r io.Reader, n int) ([]byte, error) {
	var out []byte
	buf := make([]byte, n)
	for {
		k, err := r.Read(buf)
		out = append(out, buf[:k]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// TestDecodesWithoutHandingOver: every payload from every compressor is
// decoded here, exactly, and never handed over (so the fast path, not
// klauspost's reader, is what the test checks).
func TestDecodesWithoutHandingOver(t *testing.T) {
	var z Reader
	for name, data := range payloads() {
		for _, c := range compressors() {
			gz := gzipped(t, c, data)
			for _, n := range []int{1 << 16, 4093} {
				if err := z.Reset(gz); err != nil {
					t.Fatalf("%s %s: reset: %v", name, c.name, err)
				}
				got, err := readAll(&z, n)
				if err != nil || !bytes.Equal(got, data) {
					t.Fatalf("%s %s reads of %d: %d bytes (want %d), equal %v, %v", name, c.name, n, len(got), len(data), bytes.Equal(got, data), err)
				}
				if z.handed {
					t.Errorf("%s %s: handed over", name, c.name)
				}
			}
		}
	}
}

// TestMembers: several members read as one text, as gzip.Reader reads them.
func TestMembers(t *testing.T) {
	p := payloads()
	cs := compressors()
	gz := append(gzipped(t, cs[2], p["json"]), gzipped(t, cs[7], p["run"][:1000])...)
	gz = append(gz, gzipped(t, cs[1], p["empty"])...)
	var z Reader
	if err := z.Reset(gz); err != nil {
		t.Fatal(err)
	}
	got, err := readAll(&z, 1<<16)
	want := append(append([]byte{}, p["json"]...), p["run"][:1000]...)
	if err != nil || !bytes.Equal(got, want) || z.handed {
		t.Fatalf("%d bytes (want %d), %v, handed %v", len(got), len(want), err, z.handed)
	}
}

// TestHeaderFields: a name, a comment and extra data are read past here;
// a header CRC is handed over and still read.
func TestHeaderFields(t *testing.T) {
	data := payloads()["json"][:5000]
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Name, zw.Comment, zw.Extra = "rank-0.json", "a comment", []byte{1, 2, 3, 4}
	if err := writeAll(zw, data); err != nil {
		t.Fatal(err)
	}
	var z Reader
	for _, hcrc := range []bool{false, true} {
		gz := b.Bytes()
		if hcrc {
			gz = withHeaderCRC(gz)
		}
		if err := z.Reset(gz); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(&z, 1<<16)
		if err != nil || !bytes.Equal(got, data) || z.handed != hcrc {
			t.Fatalf("header CRC %v: %d bytes, %v, handed %v", hcrc, len(got), err, z.handed)
		}
	}
}

// withHeaderCRC adds FHCRC (the CRC-32's low half of the header) to a
// member without FHCRC whose header ends with its comment.
func withHeaderCRC(gz []byte) []byte {
	end, _ := headerEnd(gz, 0)
	h := append([]byte{}, gz[:end]...)
	h[3] |= flagHdrCRC
	crc := crc32.ChecksumIEEE(h)
	h = append(h, byte(crc), byte(crc>>8))
	return append(h, gz[end:]...)
}
