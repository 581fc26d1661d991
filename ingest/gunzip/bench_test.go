package gunzip

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// BenchmarkInflate reads profiler-like JSON gzipped at three levels with
// this package's Reader and with klauspost's (the reader it replaces for
// files held in memory); MB/s is of the uncompressed text.
func BenchmarkInflate(b *testing.B) {
	data := payloads()["json"]
	for _, c := range []compressor{compressors()[3], compressors()[8], compressors()[9]} {
		gz := gzipped(b, c, data)
		b.Run(c.name+"/gunzip", func(b *testing.B) {
			var z Reader
			benchRead(b, data, func() io.Reader { _ = z.Reset(gz); return &z })
		})
		b.Run(c.name+"/klauspost", func(b *testing.B) {
			zr, _ := gzip.NewReader(bytes.NewReader(gz))
			benchRead(b, data, func() io.Reader { _ = zr.Reset(bytes.NewReader(gz)); return zr })
		})
	}
}

func benchRead(b *testing.B, data []byte, open func() io.Reader) {
	buf := make([]byte, 64<<10)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := open()
		n := 0
		for {
			k, err := r.Read(buf)
			n += k
			if err != nil {
				break
			}
		}
		if n != len(data) {
			b.Fatalf("%d bytes, want %d", n, len(data))
		}
	}
}

// BenchmarkInflateSample reads the bundled sample's gzipped rank files as
// they lie on disk (the generator's Kineto traces) with both readers.
func BenchmarkInflateSample(b *testing.B) {
	paths, _ := filepath.Glob("../../samples/default/*.json.gz")
	if len(paths) == 0 {
		b.Skip("no bundled sample")
	}
	for _, p := range paths[:1] {
		gz, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		zr, _ := gzip.NewReader(bytes.NewReader(gz))
		data, err := io.ReadAll(zr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("gunzip", func(b *testing.B) {
			var z Reader
			benchRead(b, data, func() io.Reader { _ = z.Reset(gz); return &z })
		})
		b.Run("klauspost", func(b *testing.B) {
			benchRead(b, data, func() io.Reader { _ = zr.Reset(bytes.NewReader(gz)); return zr })
		})
	}
}
