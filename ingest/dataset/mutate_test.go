package dataset

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// TestMutatedFilesStayBounded: no few-byte mutation of a small events
// file (bit flips, bytes set, runs of continuation bytes inserted into
// Thrift varints) makes the reader allocate more than 100 MB or hang: the
// first such file found claimed 3.2 GB in a page header's binary field
// (kept as the seed varint_claims_gigabytes; pqsafe.CheckPages).
func TestMutatedFilesStayBounded(t *testing.T) {
	good := smallEventsFile(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 20000; it++ {
		data := bytes.Clone(good)
		for k := 0; k < 1+rng.IntN(4); k++ {
			i := rng.IntN(len(data))
			switch rng.IntN(5) {
			case 3:
				ins := make([]byte, 1+rng.IntN(8))
				for j := range ins {
					ins[j] = byte(rng.IntN(256)) | 0x80
				}
				data = append(data[:i], append(ins, data[i:]...)...)
				continue
			case 4:
				data[i] = 0x7f
			case 0:
				data[i] ^= byte(1 << rng.IntN(8))
			case 1:
				data[i] = byte(rng.IntN(256))
			default:
				data[i] = 0xff
			}
		}
		done := make(chan struct{})
		var ms0 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		go func() {
			defer close(done)
			pf, err := openParquetReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				return
			}
			for _, withColls := range []bool{false, true} {
				decodeColumns(pf, -1, 0, withColls)
			}
		}()
		select {
		case <-done:
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.TotalAlloc-ms0.TotalAlloc > 100<<20 {
				t.Fatalf("mutation %d allocated %d MB: %q", it, (ms.TotalAlloc-ms0.TotalAlloc)>>20, data)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("mutation %d did not finish in 10 s: %q", it, data)
		}
	}
}
