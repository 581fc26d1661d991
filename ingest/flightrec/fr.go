package flightrec

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/tpptrace/tpptrace/ingest/flightrec/pickle"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// ReadDump reads one Flight Recorder dump, pickle or JSON. The rank comes
// from the file name's trailing number and is checked against the process
// groups the dump lists.
func ReadDump(path string) (*model.FRDump, error) { return readDump(path, 0) }

// maxPickle is the largest pickled dump read: a pickle is decoded whole,
// into generic values several times its size, where a real dump (a ring
// buffer of some 2,000 entries) takes a few MB (docs/limits.md).
var maxPickle int64 = 64 << 20

// readDump is ReadDump within the memory budget maxMem (0: none), checked
// once the file is decoded and every memEvery entries.
func readDump(path string, maxMem int64) (*model.FRDump, error) {
	d, _, err := scanDump(path, maxMem, true)
	return d, err
}

// scanDump reads a dump. With keep false, a JSON dump whose entries are in
// record order comes back lazy: its entries checked but left in the file
// (Entries nil), for eachEntry to stream.
func scanDump(path string, maxMem int64, keep bool) (*model.FRDump, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, fmt.Errorf("flight recorder: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	if b, _ := br.Peek(1); len(b) == 1 && b[0] == 0x80 {
		d, err := readPickle(path, br, maxMem)
		return d, false, err
	}
	return readJSON(path, br, maxMem, keep)
}

// readPickle decodes a pickled dump whole, refusing one over maxPickle.
func readPickle(path string, r io.Reader, maxMem int64) (*model.FRDump, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(r, maxPickle+1)); err != nil {
		return nil, fmt.Errorf("flight recorder: %w", err)
	}
	if int64(buf.Len()) > maxPickle {
		return nil, &source.FileError{Path: path, Offset: -1, Err: fmt.Errorf("a pickle of %s, over the %d MiB a pickled dump may take (it is decoded whole)", fileSize(path), maxPickle>>20)}
	}
	v, err := pickle.DecodeBytes(buf.Bytes())
	if err == nil {
		err = source.CheckMemory(maxMem)
	}
	if err != nil {
		return nil, &source.FileError{Path: path, Offset: errOffset(err), Unit: "byte", Err: err}
	}
	d, err := dumpFrom(v, maxMem)
	return finish(path, d, err)
}

// fileSize is the size of the file at path, in words.
func fileSize(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return "unknown size"
	}
	return fmt.Sprintf("%d bytes", st.Size())
}

// readJSON streams a JSON dump (jsonDump), converting each entry as read;
// see scanDump for keep.
func readJSON(path string, r io.Reader, maxMem int64, keep bool) (*model.FRDump, bool, error) {
	entries := []model.FREntry{} // as entriesFrom gives: empty, not nil
	lists, ordered, last := 0, true, int64(math.MinInt64)
	sink := entrySink{start: func() { entries, lists, last = entries[:0], lists+1, math.MinInt64 }, entry: func(i int, v any) error {
		e, err := entryAt(i, v, maxMem)
		if keep {
			entries = append(entries, e)
		}
		ordered, last = ordered && e.RecordID >= last, e.RecordID
		return err
	}}
	top, entryErr, err := jsonDump(r, sink)
	if err == nil {
		err = source.CheckMemory(maxMem)
	}
	if err != nil {
		return nil, false, &source.FileError{Path: path, Offset: -1, Unit: "byte", Err: err}
	}
	d, err := headFrom(top)
	if err == nil {
		d.Entries, err = inRecordOrder(entries), entryErr
		if _, ok := top["entries"].(streamed); !ok {
			_, err = entriesFrom(top["entries"], maxMem) // not a list: says what it is
		}
	}
	if d, err = finish(path, d, err); err != nil || keep || ordered && lists == 1 {
		return d, !keep && err == nil, err
	}
	return scanDump(path, maxMem, true)
}

// finish names the dump's file and rank, or the file in err.
func finish(path string, d *model.FRDump, err error) (*model.FRDump, error) {
	if err == nil {
		d.Path = path
		d.Rank, err = dumpRank(d)
	}
	if err != nil {
		return nil, &source.FileError{Path: path, Offset: -1, Err: err}
	}
	return d, nil
}

// eachEntry streams the entries of a lazy dump (scanDump) to fn, within
// the memory budget maxMem (0: none).
func eachEntry(path string, maxMem int64, fn func(model.FREntry)) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("flight recorder: %w", err)
	}
	defer f.Close()
	_, entryErr, err := jsonDump(bufio.NewReaderSize(f, 64<<10), entrySink{start: func() {}, entry: func(i int, v any) error {
		e, err := entryAt(i, v, maxMem)
		if err == nil {
			fn(e)
		}
		return err
	}})
	if err = cmp.Or(err, entryErr); err != nil {
		return &source.FileError{Path: path, Offset: -1, Err: fmt.Errorf("read again: %w", err)}
	}
	return nil
}

func errOffset(err error) int64 {
	if pe, ok := err.(*pickle.Error); ok {
		return pe.Offset
	}
	return -1
}

// LooksLikeDump reports whether head starts a Flight Recorder dump.
func LooksLikeDump(head []byte) bool {
	if len(head) >= 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5 {
		return bytes.Contains(head, []byte("pg_config")) || bytes.Contains(head, []byte("entries")) || bytes.Contains(head, []byte("version"))
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && bytes.Contains(head, []byte(`"pg_config"`))
}

var trailingNum = regexp.MustCompile(`(\d+)(\.[A-Za-z]+)?$`)

// dumpRank takes the rank from the file name and checks it against the
// intersection of the dump's process groups (each rank lists only groups it
// belongs to); with no number in the name, a one-rank intersection decides.
func dumpRank(d *model.FRDump) (int32, error) {
	inter := groupIntersection(d)
	m := trailingNum.FindStringSubmatch(filepath.Base(d.Path))
	if m == nil {
		if len(inter) == 1 {
			return inter[0], nil
		}
		return -1, fmt.Errorf("cannot tell the rank: no number at the end of the file name and the process groups hold ranks %s", brief(inter))
	}
	r, err := strconv.ParseInt(m[1], 10, 32)
	if err != nil {
		return -1, fmt.Errorf("rank %q in the file name: %w", m[1], err)
	}
	if inter != nil && !slices.Contains(inter, int32(r)) {
		return -1, fmt.Errorf("the file name says rank %d but every process group of the dump holds ranks %s", r, brief(inter))
	}
	return int32(r), nil
}

func groupIntersection(d *model.FRDump) []int32 {
	var inter []int32
	first := true
	for _, g := range d.Groups {
		if first {
			inter, first = slices.Clone(g.Ranks), false
			continue
		}
		in := make(map[int32]bool, len(g.Ranks))
		for _, r := range g.Ranks {
			in[r] = true
		}
		inter = slices.DeleteFunc(inter, func(r int32) bool { return !in[r] })
	}
	slices.Sort(inter)
	return inter
}
