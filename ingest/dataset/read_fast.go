package dataset

import (
	"encoding/binary"
	"hash/crc32"
	"unsafe"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/delta"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/format"

	"github.com/tpptrace/tpptrace/ingest/pqsafe"
	"github.com/tpptrace/tpptrace/model"
)

// The fast path of an events file held in memory (a cache entry's, tens of
// KiB): the pages the package writes (DATA_PAGE_V2, required columns,
// snappy or none; PLAIN integers, DELTA_BINARY_PACKED starts, dictionary
// strings; a dataset's pages are the same, zstd-compressed) are decoded
// straight from the file's bytes into the event columns, the integers
// decompressed in place, with no page objects,
// buffers or copies. Anything else, and any inconsistency (a checksum, a
// size, a count, an index out of its dictionary, a row out of order), gives
// up: the caller then decodes the file with parquet-go (decodeInto), which
// gives the result or the error. So the fast path never decides an error,
// and what it accepts, the slow path reads the same (FuzzFastEqualsSlow).

// littleEndian: the fast path reinterprets column memory as PLAIN's
// little-endian bytes.
var littleEndian = binary.LittleEndian.Uint16([]byte{1, 0}) == *(*uint16)(unsafe.Pointer(&[]byte{1, 0}[0]))

// fastScratch is one reader's reusable buffers.
type fastScratch struct {
	file []byte   // the events file, read whole
	buf  []byte   // a decompressed page that is not decoded in place
	idx  []int32  // a page's dictionary indexes
	dict []byte   // the decompressed dictionary page
	ents [][]byte // its entries
	ids  []int32  // the entries' ids, -1 before first use
}

// fastCol is one event column: where its values go.
type fastCol struct {
	name string
	typ  format.Type
	i32  *[]int32
	i64  *[]int64
	str  bool // a dictionary column: name (into c.names) or kind
}

// decodeFast decodes the events file whose bytes are b (pf, its footer)
// into c's empty columns; false when it gave up (c's columns and names are
// then to be reset).
func decodeFast(b []byte, pf *parquet.File, r int32, c *chunk, sc *fastScratch) bool {
	if !littleEndian || b == nil {
		return false
	}
	ev := &c.ev
	cols := []fastCol{{"rank", format.Int32, &ev.Rank, nil, false}, {"stream", format.Int32, &ev.Stream, nil, false},
		{"coll", format.Int32, &ev.Coll, nil, false}, {"iter", format.Int32, &ev.Iter, nil, false},
		{"micro", format.Int32, &ev.Micro, nil, false}, {"start_ns", format.Int64, nil, &ev.Start, false},
		{"dur_ns", format.Int64, nil, &ev.Dur, false}, {"corr", format.Int64, nil, &ev.Corr, false},
		{"name", format.ByteArray, &ev.Name, nil, true}, {"kind", format.ByteArray, nil, nil, true}}
	index := make([]int, len(cols))
	for i, col := range cols {
		j, err := lookupRequired(pf.Schema(), col.name, len(pf.Schema().Columns()))
		if err != nil {
			return false
		}
		index[i] = j
	}
	table := kindTable()
	for _, rg := range pf.Metadata().RowGroups {
		for i, col := range cols {
			if index[i] >= len(rg.Columns) {
				return false
			}
			m := &rg.Columns[index[i]].MetaData
			if m.Type != col.typ || m.NumValues != rg.NumRows {
				return false
			}
			ok := true
			switch {
			case col.name == "kind":
				ok = sc.kindChunk(b, m, &ev.Kind, table)
			case col.str:
				ok = sc.nameChunk(b, m, col.i32, &c.names)
			default:
				ok = sc.intChunk(b, m, col)
			}
			if !ok {
				return false
			}
		}
	}
	n := len(ev.Rank)
	for _, l := range []int{len(ev.Stream), len(ev.Coll), len(ev.Iter), len(ev.Micro), len(ev.Start), len(ev.Dur), len(ev.Corr), len(ev.Name), len(ev.Kind)} {
		if l != n {
			return false
		}
	}
	return int64(n) == pf.NumRows() && checkRows(ev, r) == nil
}

// page is one page of a column chunk: its header and body.
type page struct {
	h    pqsafe.PageHeader
	body []byte
}

// pages calls fn with each page of the chunk m describes, in b; false when
// the chunk or a page does not fit, a checksum fails, or fn says false.
func pages(b []byte, m *format.ColumnMetaData, fn func(p page) bool) bool {
	if m.Codec != format.Snappy && m.Codec != format.Zstd && m.Codec != format.Uncompressed {
		return false
	}
	start := m.DataPageOffset
	if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
		start = m.DictionaryPageOffset
	}
	size := m.TotalCompressedSize
	if start < 0 || size < 0 || start > int64(len(b)) || size > int64(len(b))-start {
		return false
	}
	chunk := b[start : start+size]
	for off := 0; off < len(chunk); {
		h, n, err := pqsafe.ReadPageHeader(chunk[off:])
		if err != nil {
			return false
		}
		body := chunk[off+n : off+n+int(h.CompressedSize)]
		if h.CRC != 0 && uint32(h.CRC) != crc32.ChecksumIEEE(body) {
			return false
		}
		if !fn(page{h, body}) {
			return false
		}
		off += n + int(h.CompressedSize)
	}
	return true
}

// values is a data page's values section (v2 with no levels or nulls);
// false for any other page.
func (p page) values() ([]byte, int, bool) {
	h := p.h
	if h.Type != pqsafe.DataPageV2 || h.NumNulls != 0 || h.DefLevelBytes != 0 || h.RepLevelBytes != 0 ||
		h.NumValues < 0 || h.NumRows != h.NumValues {
		return nil, 0, false
	}
	return p.body, int(h.NumValues), true
}

// decompress returns the page's values decompressed into dst when it is
// large enough (else into a new buffer); false when they are not exactly
// the header's uncompressed size.
func decompress(m *format.ColumnMetaData, h pqsafe.PageHeader, src, dst []byte) ([]byte, bool) {
	if m.Codec == format.Uncompressed || !h.IsCompressed {
		return src, len(src) == int(h.UncompressedSize)
	}
	if m.Codec == format.Zstd {
		return unzstd(src, dst, int(h.UncompressedSize))
	}
	n, err := s2.DecodedLen(src)
	if err != nil || n != int(h.UncompressedSize) {
		return nil, false
	}
	out, err := s2.Decode(dst, src)
	return out, err == nil && len(out) == n
}

// intChunk appends an integer column chunk's values to col.
func (sc *fastScratch) intChunk(b []byte, m *format.ColumnMetaData, col fastCol) bool {
	return pages(b, m, func(p page) bool {
		src, n, ok := p.values()
		if !ok {
			return false
		}
		switch {
		case p.h.Encoding == int32(format.Plain) && col.i32 != nil:
			return plainInto(m, p.h, src, col.i32, n)
		case p.h.Encoding == int32(format.Plain):
			return plainInto(m, p.h, src, col.i64, n)
		case p.h.Encoding == int32(format.DeltaBinaryPacked) && col.i64 != nil:
			return sc.deltaInto(m, p.h, src, col.i64, n)
		}
		return false
	})
}

// plainInto appends n PLAIN values to *dst, decompressed straight into its
// memory when it has room.
func plainInto[T int32 | int64](m *format.ColumnMetaData, h pqsafe.PageHeader, src []byte, dst *[]T, n int) bool {
	var zero T
	width := int(unsafe.Sizeof(zero))
	if int(h.UncompressedSize) != n*width {
		return false
	}
	base := len(*dst)
	if cap(*dst)-base < n {
		*dst = append(*dst, make([]T, n)...)
	}
	out := (*dst)[base : base+n]
	if n == 0 {
		*dst = (*dst)[:base]
		return true
	}
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), n*width)
	got, ok := decompress(m, h, src, raw)
	if !ok {
		return false
	}
	if &got[0] != &raw[0] {
		copy(raw, got)
	}
	*dst = (*dst)[:base+n]
	return true
}

// deltaInto appends n DELTA_BINARY_PACKED values to *dst.
func (sc *fastScratch) deltaInto(m *format.ColumnMetaData, h pqsafe.PageHeader, src []byte, dst *[]int64, n int) bool {
	data, ok := sc.decompressed(m, h, src)
	if !ok {
		return false
	}
	base := len(*dst)
	if cap(*dst)-base < n {
		*dst = append(*dst, make([]int64, n)...)[:base]
	}
	var enc delta.BinaryPackedEncoding
	out, err := enc.DecodeInt64((*dst)[base:base:base+n], data)
	if err != nil || len(out) != n {
		return false
	}
	if n > 0 && &out[0] != &(*dst)[base : base+n][0] {
		copy((*dst)[base:base+n], out)
	}
	*dst = (*dst)[:base+n]
	return true
}

// decompressed is the page's values decompressed into sc.buf.
func (sc *fastScratch) decompressed(m *format.ColumnMetaData, h pqsafe.PageHeader, src []byte) ([]byte, bool) {
	if m.Codec == format.Uncompressed || !h.IsCompressed {
		return decompress(m, h, src, nil)
	}
	if cap(sc.buf) < int(h.UncompressedSize) {
		sc.buf = make([]byte, h.UncompressedSize)
	}
	return decompress(m, h, src, sc.buf[:h.UncompressedSize])
}

// dictChunk walks a dictionary column chunk: its dictionary page into
// sc.ents (entries' ids reset to -1), then each data page's indexes, every
// one checked against the dictionary, to fn.
func (sc *fastScratch) dictChunk(b []byte, m *format.ColumnMetaData, fn func(idx []int32) bool) bool {
	sc.ents = sc.ents[:0]
	haveDict := false
	return pages(b, m, func(p page) bool {
		if p.h.Type == pqsafe.DictionaryPage {
			if haveDict || p.h.Encoding != int32(format.Plain) && p.h.Encoding != int32(format.PlainDictionary) {
				return false
			}
			haveDict = true
			return sc.readDict(m, p)
		}
		src, n, ok := p.values()
		if !ok || !haveDict || p.h.Encoding != int32(format.RLEDictionary) && p.h.Encoding != int32(format.PlainDictionary) {
			return false
		}
		data, ok := sc.decompressed(m, p.h, src)
		if !ok {
			return false
		}
		if cap(sc.idx) < n {
			sc.idx = make([]int32, 0, n)
		}
		var enc rle.DictionaryEncoding
		idx, err := enc.DecodeInt32(sc.idx[:0], data)
		if err != nil || len(idx) != n {
			return false
		}
		if cap(idx) > cap(sc.idx) {
			sc.idx = idx[:0]
		}
		for _, x := range idx {
			if x < 0 || int(x) >= len(sc.ents) {
				return false
			}
		}
		return fn(idx)
	})
}

// readDict reads a PLAIN dictionary page's byte-array entries.
func (sc *fastScratch) readDict(m *format.ColumnMetaData, p page) bool {
	var data []byte
	if m.Codec == format.Uncompressed || !p.h.IsCompressed {
		data = p.body
	} else {
		n := int(p.h.UncompressedSize) // at most pqsafe.MaxPageBytes
		if cap(sc.dict) < n {
			sc.dict = make([]byte, n)
		}
		var ok bool
		if data, ok = decompress(m, p.h, p.body, sc.dict[:n]); !ok {
			return false
		}
	}
	if int(p.h.UncompressedSize) != len(data) || p.h.NumValues < 0 {
		return false
	}
	for range p.h.NumValues {
		if len(data) < 4 {
			return false
		}
		l := binary.LittleEndian.Uint32(data)
		if uint64(l) > uint64(len(data)-4) {
			return false
		}
		sc.ents = append(sc.ents, data[4:4+l])
		data = data[4+l:]
	}
	if len(data) != 0 {
		return false
	}
	sc.ids = sc.ids[:0]
	for range sc.ents {
		sc.ids = append(sc.ids, -1)
	}
	return true
}

// nameChunk appends a name chunk's ids to *dst, interning each dictionary
// entry in names on its first use, in row order (as appendStrings does).
func (sc *fastScratch) nameChunk(b []byte, m *format.ColumnMetaData, dst *[]int32, names *model.Strings) bool {
	return sc.dictChunk(b, m, func(idx []int32) bool {
		for _, x := range idx {
			if sc.ids[x] < 0 {
				sc.ids[x] = names.Intern(string(sc.ents[x]))
			}
			*dst = append(*dst, sc.ids[x])
		}
		return true
	})
}

// kindChunk appends a kind chunk's kinds to *kinds (a kind name the table
// lacks is the zero kind, as finish converts it).
func (sc *fastScratch) kindChunk(b []byte, m *format.ColumnMetaData, kinds *[]model.Kind, table map[string]model.Kind) bool {
	var byEntry []model.Kind
	return sc.dictChunk(b, m, func(idx []int32) bool {
		if byEntry == nil {
			byEntry = make([]model.Kind, len(sc.ents))
			for i, e := range sc.ents {
				byEntry[i] = table[string(e)]
			}
		}
		for _, x := range idx {
			*kinds = append(*kinds, byEntry[x])
		}
		return true
	})
}
