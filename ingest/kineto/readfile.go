package kineto

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"

	"github.com/tpptrace/tpptrace/ingest/gunzip"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// fileResult is one file's part, or why it could not be read.
type fileResult struct {
	path  string
	tr    *model.Trace
	lists map[string][]int32 // process group -> rank list as the file states it
	err   error
}

// readAll reads every file, at most opts.Workers at a time. single says
// the file is the job's only one (then its rank may default to 0).
func readAll(ctx context.Context, paths []string, opts source.Options, single bool) []fileResult {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	prog := newProgress(paths, opts.Progress)
	results := make([]fileResult, len(paths))
	sem := make(chan struct{}, workers)
	ranks := newRankIntern()
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i] = readFile(ctx, p, opts, single, prog, ranks)
		}()
	}
	wg.Wait()
	return results
}

// readFile reads one trace file into its part; its rank lists are
// interned in ranks.
func readFile(ctx context.Context, path string, opts source.Options, single bool, prog *progress, ranks *rankIntern) fileResult {
	return readFileWith(ctx, path, opts, single, prog, nil, ranks)
}

// readFileWith is readFile with a chosen element decoder (nil: the one-pass one).
func readFileWith(ctx context.Context, path string, opts source.Options, single bool, prog *progress, dec decoder, ranks *rankIntern) fileResult {
	fr := newFileReader(path, dec, stepRegex(opts))
	fr.ranks = ranks
	sc := getScratch()
	fr.evd.runs = sc.runs
	size, err := parseFile(ctx, path, fr, prog, opts.MaxMemory, sc)
	if err == nil {
		sc.hint = hintOf(fr)
	}
	fr.evd.runs, fr.text = nil, nil // the scratch is the next file's now
	fr.ev.reset()                   // (its ts and dur text is in the buffer)
	putScratch(sc)
	if err != nil {
		return fileResult{path: path, err: err}
	}
	rank, _, err := rankOf(path, fr.info, opts.RankMap, single)
	if err != nil {
		return fileResult{path: path, err: &source.FileError{Path: path, Offset: -1, Err: err}}
	}
	return fileResult{path: path, tr: fr.finish(rank, size), lists: fr.pgLists()}
}

// parseFile streams one file through fr and returns its size on disk.
func parseFile(ctx context.Context, path string, fr *fileReader, prog *progress, maxMem int64, sc *scratch) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, &source.FileError{Path: path, Offset: -1, Err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, &source.FileError{Path: path, Offset: -1, Err: err}
	}
	r, gz, err := openStream(&countReader{r: f, prog: prog}, st.Size(), sc)
	if err != nil {
		return 0, &source.FileError{Path: path, Offset: 0, Unit: "byte", Err: err}
	}
	sp := newSplitterBuf(r, sc.buf)
	defer func() { sc.buf = sp.buf }()
	fr.text, fr.textSize = sp, textSize(f, st.Size(), gz)
	fr.presize(sc.hint)
	if err := sp.run(&ctxHandler{ctx: ctx, fileReader: fr, maxMem: maxMem}); err != nil {
		return 0, fileError(path, err)
	}
	if gz { // read to the gzip trailer, so that its CRC and size are checked
		if _, err := io.Copy(io.Discard, r); err != nil {
			return 0, &source.FileError{Path: path, Offset: sp.offset(), Unit: "byte", Err: err}
		}
	}
	return st.Size(), nil
}

// scratch is what reading one file needs and the next file can reuse: the
// splitter's buffer, the decoder's learnt member runs (a run means the
// same in every file, so the next file starts taught; TestMemberRuns), the
// file's read buffer, the sizes its columns and tables grew to (sizeHint),
// and for gzip the compressed bytes and the inflater
// (fresh, they were 0.2–0.3 MB of new memory a file: page faults, in a
// fresh process). Nothing read from a file points into them once its part
// is built.
type scratch struct {
	buf  []byte
	runs *memberRuns
	br   *bufio.Reader
	gz   []byte         // a gzip file's bytes (gzipSource)
	zr   *gzip.Reader   // nil until the first gzip file streamed
	fast *gunzip.Reader // nil until the first gzip file read whole
	hint sizeHint       // the sizes the last file read grew to
}

// maxScratchBuf is the largest splitter buffer kept for the next file (one
// grown for a huge element is dropped).
const maxScratchBuf = 1 << 20

var scratchPool = sync.Pool{New: func() any { return &scratch{runs: new(memberRuns)} }}

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

func putScratch(sc *scratch) {
	if cap(sc.buf) > maxScratchBuf {
		sc.buf = nil
	}
	if sc.br != nil {
		sc.br.Reset(nil) // (drop the file)
	}
	scratchPool.Put(sc)
}

// textSize is the length of a file's JSON text as far as it is known before
// reading it, a hint for presizing the event columns: the file's size, or for
// gzip the length its trailer records (modulo 4 GiB, and the last member's
// when there are several); 0 when it cannot be read.
func textSize(f *os.File, size int64, gz bool) int64 {
	if !gz {
		return size
	}
	var b [4]byte
	if size < 18 { // a gzip header and trailer
		return 0
	}
	if _, err := f.ReadAt(b[:], size-4); err != nil {
		return 0
	}
	return int64(binary.LittleEndian.Uint32(b[:]))
}

func stepRegex(opts source.Options) *regexp.Regexp {
	if opts.StepRegex != nil {
		return opts.StepRegex
	}
	return DefaultStepRegex
}

// fileError names the file and, for syntax errors, the byte offset in the
// (decompressed) JSON text.
func fileError(path string, err error) error {
	var se *syntaxError
	if errors.As(err, &se) {
		return &source.FileError{Path: path, Offset: se.Offset, Unit: "byte", Err: errors.New(se.Msg)}
	}
	return &source.FileError{Path: path, Offset: -1, Err: err}
}

// maxGzipInMemory is the largest gzip file read whole before it is
// decompressed (by gunzip.Reader's Reset, which reads a slice). Larger
// files stream through gunzip.Reader's own buffer.
const maxGzipInMemory = 8 << 20

// openStream returns the JSON text of r (size bytes on disk), gunzipping it
// (with the ratio guard) when it is gzip, and whether it was; it reads
// through sc's buffers and inflaters, which the text then uses until the
// file is read. A gzip file is inflated by gunzip.Reader (faster than
// klauspost's, the same bytes and errors: it hands anything it does not
// decode over to that reader), read whole into memory when it is small.
func openStream(r *countReader, size int64, sc *scratch) (io.Reader, bool, error) {
	if sc.br == nil {
		sc.br = bufio.NewReaderSize(r, 64<<10)
	}
	br := sc.br
	br.Reset(r)
	magic, _ := br.Peek(2)
	if len(magic) != 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, false, nil
	}
	zr, err := sc.gzipText(br, r, size)
	if err != nil {
		return nil, true, err
	}
	return &ratioReader{r: &gzipErrReader{zr}, in: r}, true, nil
}

// gzipText is the inflating reader of the gzip file br reads (through r):
// gunzip's over the whole file when it is at most maxGzipInMemory bytes
// and did not grow since its Stat, else gunzip's over the stream (which
// rewinds r to hand the file over), or klauspost's for a file that has no
// size (a pipe: it cannot be read again).
func (sc *scratch) gzipText(br *bufio.Reader, r *countReader, size int64) (io.Reader, error) {
	whole, src, err := gzipSource(br, size, &sc.gz)
	if err != nil {
		return nil, err
	}
	if sc.fast == nil && size > 0 {
		sc.fast = new(gunzip.Reader)
	}
	switch {
	case whole != nil:
		err = sc.fast.Reset(whole)
	case size > 0:
		err = sc.fast.ResetStream(src, func() (io.Reader, error) { return again(br, r) })
	default:
		var zr *gzip.Reader
		if zr, err = sc.inflater(src); err == nil {
			return zr, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("gzip header: %w", err)
	}
	return sc.fast, nil
}

// again is the file br reads through r from its start once more.
func again(br *bufio.Reader, r *countReader) (io.Reader, error) {
	if err := r.rewind(); err != nil {
		return nil, err
	}
	br.Reset(r)
	return br, nil
}

// inflater returns sc's gzip reader reset to src (made on first use).
func (sc *scratch) inflater(src io.Reader) (*gzip.Reader, error) {
	if sc.zr == nil {
		zr, err := gzip.NewReader(src)
		if err != nil {
			return nil, err
		}
		sc.zr = zr
		return zr, nil
	}
	return sc.zr, sc.zr.Reset(src)
}

// gzipSource reads a gzip file of at most maxGzipInMemory bytes whole into
// *buf (grown when too small and kept for the next file) and returns its
// bytes; a larger file, or one that grew since its Stat, is returned as a
// stream (br, or what was read of it then br).
func gzipSource(br *bufio.Reader, size int64, buf *[]byte) ([]byte, io.Reader, error) {
	if size <= 0 || size > maxGzipInMemory {
		return nil, br, nil
	}
	if int64(cap(*buf)) < size+1 {
		*buf = make([]byte, size+1)
	}
	b := (*buf)[:size+1] // one byte more: a file that grew since its Stat streams on
	n, err := io.ReadFull(br, b)
	switch {
	case err == nil:
		return nil, io.MultiReader(bytes.NewReader(b), br), nil
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return b[:n], nil, nil
	}
	return nil, nil, fmt.Errorf("reading: %w", err)
}

// gzipErrReader turns a truncated gzip stream into a named error rather than
// a plain end of input.
type gzipErrReader struct{ r io.Reader }

func (g *gzipErrReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = fmt.Errorf("gzip data truncated or corrupt: %w", err)
	}
	return n, err
}

// ctxHandler stops reading when the context is cancelled or the memory
// budget is passed.
type ctxHandler struct {
	ctx context.Context
	*fileReader
	n      int
	maxMem int64
}

func (h *ctxHandler) event(raw []byte, off int64, derr error) error {
	h.n++
	if h.n&4095 == 0 {
		if err := h.ctx.Err(); err != nil {
			return err
		}
		if err := source.CheckMemory(h.maxMem); err != nil {
			return fmt.Errorf("byte %d: %w", off, err)
		}
	}
	return h.fileReader.event(raw, off, derr)
}

// progress reports bytes read across files.
type progress struct {
	done, total int64
	fn          func(done, total int64)
}

func newProgress(paths []string, fn func(done, total int64)) *progress {
	p := &progress{fn: fn}
	for _, path := range paths {
		if st, err := os.Stat(path); err == nil {
			p.total += st.Size()
		}
	}
	return p
}

// countReader reads a file, telling progress how far, and counts its
// bytes read for the decompression-bomb guard. After a rewind (a gzip
// file handed over to the other inflater, which reads it again) neither
// counts a byte twice: n is the furthest the file has been read.
type countReader struct {
	r    io.Reader
	prog *progress
	n    int64 // the furthest position read
	at   int64 // the position read up to
}

func (c *countReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.at += int64(n)
	if d := c.at - c.n; d > 0 {
		c.n = c.at
		if c.prog.fn != nil {
			c.prog.fn(atomic.AddInt64(&c.prog.done, d), c.prog.total)
		}
	}
	return n, err
}

// rewind goes back to the file's start, when it can seek.
func (c *countReader) rewind() error {
	s, ok := c.r.(io.Seeker)
	if !ok {
		return errors.New("cannot read the file again from its start")
	}
	if _, err := s.Seek(0, io.SeekStart); err != nil {
		return err
	}
	c.at = 0
	return nil
}
