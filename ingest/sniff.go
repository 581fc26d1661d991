package ingest

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

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
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		r = zr
	}
	head := make([]byte, sniffSize)
	n, err := io.ReadFull(r, head)
	if err != nil && n == 0 && err != io.EOF {
		return nil, err
	}
	return head[:n], nil
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
