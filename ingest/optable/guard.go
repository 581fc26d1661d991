package optable

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/format"
)

// maxChunkBytes bounds a column chunk's claimed uncompressed size: a
// corrupt footer claiming more would make the decoders allocate it.
const maxChunkBytes = 1 << 30

// checkFooter checks the magic bytes and that the footer length fits in the
// file (parquet-go allocates whatever a corrupt footer claims).
func checkFooter(r io.ReaderAt, size int64) error {
	var tail [8]byte
	if size < 12 {
		return fmt.Errorf("%d bytes is too short", size)
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(tail[4:]) != "PAR1" {
		return fmt.Errorf("no PAR1 magic at the end (truncated?)")
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("footer length %d does not fit in %d bytes (truncated?)", n, size)
	}
	return nil
}

// checkChunks rejects codecs whose decoders grow without bound on corrupt
// input (LZ4) and absurd uncompressed sizes.
func checkChunks(md *format.FileMetaData) error {
	for i, rg := range md.RowGroups {
		for _, cc := range rg.Columns {
			m := cc.MetaData
			switch m.Codec {
			case format.Uncompressed, format.Snappy, format.Gzip, format.Zstd:
			default:
				return fmt.Errorf("row group %d column %v: codec %v is not supported", i, m.PathInSchema, m.Codec)
			}
			if m.TotalUncompressedSize < 0 || m.TotalUncompressedSize > maxChunkBytes {
				return fmt.Errorf("row group %d column %v claims %d uncompressed bytes", i, m.PathInSchema, m.TotalUncompressedSize)
			}
		}
	}
	return nil
}
