package inspector

import (
	"context"
	"os"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/ncclw"
)

// BenchmarkReadInspectorFiles reads big-64's Inspector files (one a rank,
// 64) on one goroutine and on GOMAXPROCS (source.InOrder); reports MB/s.
func BenchmarkReadInspectorFiles(b *testing.B) {
	job, err := samples.Big64(0, 0)
	if err != nil {
		b.Fatal(err)
	}
	paths, err := ncclw.WriteInspectorDir(b.TempDir(), job, ncclw.InspectorOptions{CommNames: true})
	if err != nil {
		b.Fatal(err)
	}
	size := filesSize(b, paths)
	for _, w := range []struct {
		name    string
		workers int
	}{{"one", 1}, {"all", 0}} {
		b.Run(w.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				if _, err := Format.Read(context.Background(), paths, source.Options{Workers: w.workers}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// filesSize is the bytes in all of paths.
func filesSize(b *testing.B, paths []string) int64 {
	var n int64
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		n += st.Size()
	}
	return n
}
