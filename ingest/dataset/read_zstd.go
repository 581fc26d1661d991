package dataset

import (
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/tpptrace/tpptrace/ingest/pqsafe"
)

// zstdPages is the decoder of the fast path's zstd pages (a dataset's, as
// Write compresses it; a cache entry's are snappy): DecodeAll may be called
// from every reader at once. A frame that would decode past a page's
// largest size (pqsafe.MaxPageBytes) is refused, so a forged one cannot
// make it allocate more.
var zstdPages = sync.OnceValue(func() *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxZstdPage))
	if err != nil {
		panic(err) // only for invalid options
	}
	return d
})

const maxZstdPage = pqsafe.MaxPageBytes

// unzstd decodes the zstd frame src into dst (in place when dst is large
// enough); false unless it decodes to exactly n bytes.
func unzstd(src, dst []byte, n int) ([]byte, bool) {
	if n < 0 || n > maxZstdPage {
		return nil, false
	}
	out, err := zstdPages().DecodeAll(src, dst[:0])
	return out, err == nil && len(out) == n
}
