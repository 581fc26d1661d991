package dataset

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/tpptrace/tpptrace/model"
)

// The events files of a cache entry (Manifest.Fast) are written here column
// by column, straight from the model's columns: no event rows are built and
// no dictionary hashes a string per row (a name id, kind or op is looked up
// in a slot table; its string only once per file). The layout is the one
// parquet-go writes for a fast file: eventRow's schema (taken from a file
// parquet-go writes with no rows, so key-value metadata, created_by and the
// column orders are its own), one row group per rowGroupRows rows, one
// DATA_PAGE_V2 page per column chunk (a dictionary page first for the dict
// columns), the same encodings, snappy with a CRC per page, and no
// statistics, page bounds or page index. `ingest -o` datasets still go
// through parquet-go's writer (writeRankEvents), byte for byte as before.

// colEnc is how a fast events column is encoded: plain, delta or dictionary.
type colEnc uint8

const (
	encPlain colEnc = iota
	encDelta
	encDict
)

// fastColumn is one leaf column of an events file, in eventRow's order.
type fastColumn struct {
	name string
	enc  colEnc
	// exactly one of these gives the values of rows [lo, hi) of the sorted order
	i32  func(g *gatherer, lo, hi int) []int32
	i64  func(g *gatherer, lo, hi int) []int64
	dict *dictColumn
}

// dictColumn is a dictionary column: each row's key (a name id, kind or op)
// and the key's string.
type dictColumn struct {
	keys  func(g *gatherer, lo, hi int) []int32
	str   func(t *model.Trace, key int32) string
	space func(t *model.Trace) int // keys lie in [0, space)
}

// fastColumns must list eventRow's leaves in order; eventsTemplate checks it.
var fastColumns = []fastColumn{
	{name: "rank", i32: evI32(func(e *model.Events) []int32 { return e.Rank })},
	{name: "start_ns", enc: encDelta, i64: evI64(func(e *model.Events) []int64 { return e.Start })},
	{name: "dur_ns", i64: evI64(func(e *model.Events) []int64 { return e.Dur })},
	{name: "kind", enc: encDict, dict: &dictColumn{keys: kindKeys, str: kindString, space: func(*model.Trace) int { return 256 }}},
	{name: "name", enc: encDict, dict: &dictColumn{keys: evI32(func(e *model.Events) []int32 { return e.Name }), str: nameString, space: nameSpace}},
	{name: "stream", i32: evI32(func(e *model.Events) []int32 { return e.Stream })},
	{name: "corr", i64: evI64(func(e *model.Events) []int64 { return e.Corr })},
	{name: "iter", i32: evI32(func(e *model.Events) []int32 { return e.Iter })},
	{name: "micro", i32: evI32(func(e *model.Events) []int32 { return e.Micro })},
	{name: "coll", i32: evI32(func(e *model.Events) []int32 { return e.Coll })},
	{name: "op", enc: encDict, dict: &dictColumn{keys: opKeys, str: opString, space: func(*model.Trace) int { return 256 }}},
	{name: "bytes", i64: collI64(func(c *model.Collectives) []int64 { return c.Bytes })},
	{name: "dtype", enc: encDict, dict: &dictColumn{keys: collI32(func(c *model.Collectives) []int32 { return c.DType }, 0), str: nameString, space: nameSpace}},
	{name: "comm", i32: collI32(func(c *model.Collectives) []int32 { return c.Comm }, -1)},
	{name: "seq", i64: collI64(func(c *model.Collectives) []int64 { return c.Seq })},
	{name: "peer", i32: collI32(func(c *model.Collectives) []int32 { return c.Peer }, -1)},
	{name: "group_size", i32: collI32(func(c *model.Collectives) []int32 { return c.GroupSize }, -1)},
}

func kindString(_ *model.Trace, k int32) string { return model.Kind(k).String() }
func opString(_ *model.Trace, o int32) string   { return model.Op(o).String() }
func nameString(t *model.Trace, id int32) string {
	return t.Names.Get(id)
}
func nameSpace(t *model.Trace) int { return t.Names.Len() }

// gatherer reads the trace's columns in the sorted order (perm, nil when
// the events are sorted) into reused buffers.
type gatherer struct {
	t    *model.Trace
	perm []int32
	b32  []int32
	b64  []int64
	coll []int32 // the rows' coll column, gathered once per row group
	cbuf []int32 // coll's buffer when gathered
}

func evI32(col func(*model.Events) []int32) func(*gatherer, int, int) []int32 {
	return func(g *gatherer, lo, hi int) []int32 { return gatherCol(g.perm, col(&g.t.Events), lo, hi, &g.b32) }
}

func evI64(col func(*model.Events) []int64) func(*gatherer, int, int) []int64 {
	return func(g *gatherer, lo, hi int) []int64 { return gatherCol(g.perm, col(&g.t.Events), lo, hi, &g.b64) }
}

// gatherCol returns col's rows [lo, hi) of the sorted order: a window of
// col itself when perm is nil, else a copy into buf.
func gatherCol[T any](perm []int32, col []T, lo, hi int, buf *[]T) []T {
	if perm == nil {
		return col[lo:hi:hi]
	}
	b := (*buf)[:0]
	for _, j := range perm[lo:hi] {
		b = append(b, col[j])
	}
	*buf = b
	return b
}

func kindKeys(g *gatherer, lo, hi int) []int32 {
	b := g.b32[:0]
	kinds := g.t.Events.Kind
	for i := lo; i < hi; i++ {
		b = append(b, int32(kinds[at(g.perm, i)]))
	}
	g.b32 = b
	return b
}

// collI32 returns the collective column col joined to each row (def when the
// row has no collective), as joinCollective does.
func collI32(col func(*model.Collectives) []int32, def int32) func(*gatherer, int, int) []int32 {
	return func(g *gatherer, _, _ int) []int32 { return joinColl(g, col(&g.t.Colls), def, &g.b32) }
}

func collI64(col func(*model.Collectives) []int64) func(*gatherer, int, int) []int64 {
	return func(g *gatherer, _, _ int) []int64 { return joinColl(g, col(&g.t.Colls), -1, &g.b64) }
}

func opKeys(g *gatherer, _, _ int) []int32 {
	b := g.b32[:0]
	ops := g.t.Colls.Op
	for _, c := range g.coll {
		o := model.OpNone
		if c >= 0 && int(c) < len(ops) {
			o = ops[c]
		}
		b = append(b, int32(o))
	}
	g.b32 = b
	return b
}

func joinColl[T int32 | int64](g *gatherer, col []T, def T, buf *[]T) []T {
	b := (*buf)[:0]
	for _, c := range g.coll {
		v := def
		if c >= 0 && int(c) < len(col) {
			v = col[c]
		}
		b = append(b, v)
	}
	*buf = b
	return b
}

// eventsTemplate returns the footer parquet-go writes for an events file of
// no rows with the fast options: the schema, key-value metadata, created_by
// and column orders every fast events file carries. It checks that the
// schema's leaves are fastColumns.
func eventsTemplate(tool writer) (*format.FileMetaData, error) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[eventRow](&buf, eventsOptions(tool)...)
	if err := w.Close(); err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		return nil, err
	}
	md := f.Metadata()
	leaves := md.Schema[1:]
	if len(leaves) != len(fastColumns) {
		return nil, fmt.Errorf("events schema has %d columns, the fast writer %d", len(leaves), len(fastColumns))
	}
	for i, c := range fastColumns {
		if leaves[i].Name != c.name || !leaves[i].Type.Valid {
			return nil, fmt.Errorf("events column %d is %q, the fast writer's %q", i, leaves[i].Name, c.name)
		}
	}
	return md, nil
}

// eventsOptions are the writer options of an events file.
func eventsOptions(tool writer) []parquet.WriterOption {
	return append(writeOptions(tool, "events"), parquet.SortingWriterConfig(
		parquet.SortingColumns(parquet.Ascending("rank"), parquet.Ascending("start_ns"))))
}

// fastFile is one events file being written by hand.
type fastFile struct {
	tmpl   *format.FileMetaData
	g      gatherer
	out    []byte // the file so far
	enc    []byte // one page's encoded values
	comp   []byte // one page compressed
	slots  []int32
	dict   dictBuilder
	groups []format.RowGroup
}

// fastFiles are reused across the files of a write (about one per worker).
var fastFiles = sync.Pool{New: func() any { return &fastFile{} }}

// writeFastEvents writes rank span s of the sorted events to path.
func writeFastEvents(path string, t *model.Trace, perm []int32, s rankSpan, tmpl *format.FileMetaData) error {
	f := fastFiles.Get().(*fastFile)
	defer func() { f.reset(nil, nil, nil); fastFiles.Put(f) }()
	f.reset(t, perm, tmpl)
	for lo := s.lo; lo < s.hi; lo += rowGroupRows {
		if err := f.rowGroup(lo, min(lo+rowGroupRows, s.hi)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := f.footer(int64(s.hi - s.lo)); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, f.out, 0o644)
}

func (f *fastFile) reset(t *model.Trace, perm []int32, tmpl *format.FileMetaData) {
	f.tmpl, f.g.t, f.g.perm = tmpl, t, perm
	f.out = append(f.out[:0], "PAR1"...)
	f.groups = f.groups[:0]
}

// rowGroup writes rows [lo, hi) of the sorted order as one row group.
func (f *fastFile) rowGroup(lo, hi int) error {
	f.g.coll = gatherCol(f.g.perm, f.g.t.Events.Coll, lo, hi, &f.g.cbuf)
	start := int64(len(f.out))
	rg := format.RowGroup{NumRows: int64(hi - lo), FileOffset: start, Ordinal: int16(len(f.groups)),
		SortingColumns: []format.SortingColumn{{ColumnIdx: 0}, {ColumnIdx: 1}}}
	for i := range fastColumns {
		cc, err := f.column(&fastColumns[i], lo, hi)
		if err != nil {
			return fmt.Errorf("column %s: %w", fastColumns[i].name, err)
		}
		rg.TotalByteSize += cc.MetaData.TotalUncompressedSize
		rg.Columns = append(rg.Columns, cc)
	}
	rg.TotalCompressedSize = int64(len(f.out)) - start
	f.groups = append(f.groups, rg)
	return nil
}

// column writes one column chunk of rows [lo, hi) and returns its metadata.
func (f *fastFile) column(c *fastColumn, lo, hi int) (format.ColumnChunk, error) {
	n := hi - lo
	md := format.ColumnMetaData{Type: fastType(c), PathInSchema: []string{c.name}, Codec: format.Snappy, NumValues: int64(n)}
	var err error
	if c.dict != nil {
		err = f.dictChunk(&md, c.dict, c.dict.keys(&f.g, lo, hi))
	} else {
		err = f.valueChunk(&md, c, lo, hi)
	}
	return format.ColumnChunk{MetaData: md}, err
}

func fastType(c *fastColumn) format.Type {
	switch {
	case c.dict != nil:
		return format.ByteArray
	case c.i64 != nil:
		return format.Int64
	default:
		return format.Int32
	}
}

// valueChunk writes an int column chunk: one data page, plain or delta.
func (f *fastFile) valueChunk(md *format.ColumnMetaData, c *fastColumn, lo, hi int) error {
	enc, e := format.Plain, encoding.Encoding(&parquet.Plain)
	if c.enc == encDelta {
		enc, e = format.DeltaBinaryPacked, &parquet.DeltaBinaryPacked
	}
	var err error
	if c.i64 != nil {
		f.enc, err = e.EncodeInt64(f.enc[:0], c.i64(&f.g, lo, hi))
	} else {
		f.enc, err = e.EncodeInt32(f.enc[:0], c.i32(&f.g, lo, hi))
	}
	if err != nil {
		return err
	}
	md.Encoding = []format.Encoding{enc}
	md.EncodingStats = []format.PageEncodingStats{{PageType: format.DataPageV2, Encoding: enc, Count: 1}}
	md.DataPageOffset = int64(len(f.out))
	return f.dataPage(md, enc, hi-lo)
}

// dictChunk writes a dictionary column chunk: the dictionary page (its
// entries in order of first use, as parquet-go's dictionary has them), then
// the indexes as one RLE_DICTIONARY data page.
func (f *fastFile) dictChunk(md *format.ColumnMetaData, d *dictColumn, keys []int32) error {
	idx := f.dict.indexes(f, d, keys)
	md.Encoding = []format.Encoding{format.Plain, format.RLEDictionary}
	md.EncodingStats = []format.PageEncodingStats{{PageType: format.DictionaryPage, Encoding: format.Plain, Count: 1},
		{PageType: format.DataPageV2, Encoding: format.RLEDictionary, Count: 1}}
	md.DictionaryPageOffset = int64(len(f.out))
	var err error
	if f.enc, err = parquet.Plain.EncodeByteArray(f.enc[:0], f.dict.values, f.dict.offsets); err != nil {
		return err
	}
	h := format.PageHeader{Type: format.DictionaryPage,
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(len(f.dict.offsets) - 1), Encoding: format.Plain})}
	if err := f.page(md, &h); err != nil {
		return err
	}
	md.DataPageOffset = int64(len(f.out))
	if f.enc, err = parquet.RLEDictionary.EncodeInt32(f.enc[:0], idx); err != nil {
		return err
	}
	return f.dataPage(md, format.RLEDictionary, len(keys))
}

// dataPage writes f.enc as a DATA_PAGE_V2 page of n required values.
func (f *fastFile) dataPage(md *format.ColumnMetaData, enc format.Encoding, n int) error {
	h := format.PageHeader{Type: format.DataPageV2, DataPageHeaderV2: thrift.New(format.DataPageHeaderV2{
		NumValues: int32(n), NumRows: int32(n), Encoding: enc, IsCompressed: thrift.New(true)})}
	return f.page(md, &h)
}

// page compresses f.enc and appends the page with header h, adding its
// sizes to md.
func (f *fastFile) page(md *format.ColumnMetaData, h *format.PageHeader) error {
	if len(f.enc) > 1<<30 {
		return fmt.Errorf("page of %d bytes is too large", len(f.enc))
	}
	f.comp = s2.EncodeSnappy(f.comp[:cap(f.comp)], f.enc)
	h.UncompressedPageSize, h.CompressedPageSize = int32(len(f.enc)), int32(len(f.comp))
	h.CRC = int32(crc32.ChecksumIEEE(f.comp))
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), h)
	if err != nil {
		return err
	}
	f.out = append(append(f.out, hb...), f.comp...)
	md.TotalUncompressedSize += int64(len(hb) + len(f.enc))
	md.TotalCompressedSize += int64(len(hb) + len(f.comp))
	return nil
}

// footer appends the file metadata, its length and the closing magic.
func (f *fastFile) footer(rows int64) error {
	md := *f.tmpl
	md.NumRows, md.RowGroups = rows, f.groups
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		return err
	}
	f.out = binary.LittleEndian.AppendUint32(append(f.out, b...), uint32(len(b)))
	f.out = append(f.out, "PAR1"...)
	return nil
}

// dictBuilder is one column chunk's dictionary: its entries (values cut at
// offsets) and, per key, the entry's index plus one (slots, 0 when unseen).
type dictBuilder struct {
	values  []byte
	offsets []uint32
	idx     []int32
	seen    []int32 // the keys given a slot, to clear them after
	byStr   map[string]int32
}

// indexes returns each key's dictionary index, building the dictionary.
func (b *dictBuilder) indexes(f *fastFile, d *dictColumn, keys []int32) []int32 {
	b.reset(f, d.space(f.g.t))
	for _, k := range keys {
		s := int32(-1)
		if k >= 0 && int(k) < len(f.slots) {
			s = f.slots[k] - 1
		}
		if s < 0 {
			s = b.add(f, k, d.str(f.g.t, k))
		}
		b.idx = append(b.idx, s)
	}
	return b.idx
}

func (b *dictBuilder) reset(f *fastFile, space int) {
	for _, k := range b.seen {
		f.slots[k] = 0
	}
	if len(f.slots) < space {
		f.slots = make([]int32, space)
	}
	b.values, b.offsets, b.idx, b.seen = b.values[:0], append(b.offsets[:0], 0), b.idx[:0], b.seen[:0]
	clear(b.byStr)
	if b.byStr == nil {
		b.byStr = map[string]int32{}
	}
}

// add gives key k (string s) its entry: the entry of an equal string
// already in the dictionary, else a new one.
func (b *dictBuilder) add(f *fastFile, k int32, s string) int32 {
	i, ok := b.byStr[s]
	if !ok {
		i = int32(len(b.offsets) - 1)
		b.byStr[s] = i
		b.values = append(b.values, s...)
		b.offsets = append(b.offsets, uint32(len(b.values)))
	}
	if k >= 0 && int(k) < len(f.slots) {
		f.slots[k] = i + 1
		b.seen = append(b.seen, k)
	}
	return i
}
