package ingest

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"golang.org/x/sync/errgroup"
)

// sniffSize is how much of a file the formats see when sniffing.
const sniffSize = 4096

// sniffAll assigns each file to the first format whose Sniff accepts it.
// Files no format claims are returned as skip records in a trace, except
// the generator's companions (job.json, truth.json), which are passed over.
// The files are opened and sniffed on every core (sniffEach), the results
// taken in the files' order.
func sniffAll(files []string, formats []source.Format) (map[string][]string, *model.Trace) {
	groups := map[string][]string{}
	skipped := &model.Trace{}
	for i, r := range sniffEach(files, formats) {
		p := files[i]
		switch {
		case r.err != nil:
			skipped.Skip(p, -1, "", "cannot read: %v", r.err)
		case r.name == "" && companion(p, r.head):
		case r.name == "":
			skipped.Skip(p, -1, "", "%s", unknownReason(r.head))
		default:
			groups[r.name] = append(groups[r.name], p)
		}
	}
	return groups, skipped
}

// sniffed is one file's head and the format that claims it ("": none).
type sniffed struct {
	head []byte
	name string
	err  error
}

// sniffEach reads and sniffs every file, on up to GOMAXPROCS goroutines
// (a gzip file's head costs an inflater and its first block: about 0.1 ms,
// 8–18 ms for 64 files on one core).
func sniffEach(files []string, formats []source.Format) []sniffed {
	out := make([]sniffed, len(files))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, p := range files {
		g.Go(func() error {
			out[i].head, out[i].err = readHead(p)
			if out[i].err == nil {
				out[i].name = sniff(p, out[i].head, formats)
			}
			if out[i].name != "" {
				out[i].head = nil // only an unclaimed file's head is looked at again
			}
			return nil
		})
	}
	g.Wait()
	return out
}

func sniff(path string, head []byte, formats []source.Format) string {
	for _, f := range formats {
		if f.Sniff != nil && f.Sniff(path, head) {
			return f.Name
		}
	}
	return ""
}

// readHead returns up to sniffSize bytes of a file, gunzipped when it is
// gzip. A truncated gzip stream still gives what it holds.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	hr := headReaders.Get().(*headReader)
	defer headReaders.Put(hr)
	return hr.read(f)
}

// headReader is what reading a file's head needs, kept for the next file:
// a buffered reader and an inflater (new, they were about 50 KB a file of
// fresh memory, page faults and collections in a short run of many files).
type headReader struct {
	br *bufio.Reader
	zr *gzip.Reader // nil until the first gzip file
}

var headReaders = sync.Pool{New: func() any { return &headReader{br: bufio.NewReader(nil)} }}

// read is readHead of the open file f.
func (hr *headReader) read(f io.Reader) ([]byte, error) {
	hr.br.Reset(f)
	defer hr.br.Reset(nil)
	var r io.Reader = hr.br
	if magic, _ := hr.br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		if err := hr.inflate(); err != nil {
			return nil, err
		}
		r = hr.zr
	}
	head := make([]byte, sniffSize)
	n, err := io.ReadFull(r, head)
	if err != nil && n == 0 && err != io.EOF {
		return nil, err
	}
	return head[:n], nil
}

// inflate sets hr.zr to read the gzip stream in hr.br.
func (hr *headReader) inflate() error {
	if hr.zr == nil {
		zr, err := gzip.NewReader(hr.br)
		hr.zr = zr
		return err
	}
	return hr.zr.Reset(hr.br)
}

// unknownReason says why no format took a file, from its first bytes.
func unknownReason(head []byte) string {
	switch {
	case len(head) == 0:
		return "an empty file"
	case len(head) >= 2 && (head[0] == 0xff && head[1] == 0xfe || head[0] == 0xfe && head[1] == 0xff):
		return "UTF-16 text, which no input format is: re-save it as UTF-8"
	}
	return "no input format recognises this file"
}

// traceLike reports whether a file's name says it is meant as a trace, so
// that failing to recognise it deserves a warning (a directory of traces
// often holds other files too: job.json, notes): a compressed JSON, an
// SQLite export, an Nsight report, a pickle, or a JSON file whose name holds
// a number or "trace" (rank3.json, worker0.pt.trace.json).
func traceLike(path string) bool {
	name := strings.ToLower(filepath.Base(path))
	for _, ext := range []string{".json.gz", ".sqlite", ".nsys-rep", ".pkl", ".pickle"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return strings.HasSuffix(name, ".json") && (strings.ContainsAny(name, "0123456789") || strings.Contains(name, "trace"))
}
