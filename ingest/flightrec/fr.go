package flightrec

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/tpptrace/tpptrace/ingest/flightrec/pickle"
	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// ReadDump reads one Flight Recorder dump, pickle or JSON. The rank comes
// from the file name's trailing number and is checked against the process
// groups the dump lists.
func ReadDump(path string) (*model.FRDump, error) { return readDump(path, 0) }

// readDump is ReadDump within the memory budget maxMem (0: none), checked
// once the file is decoded and every memEvery entries.
func readDump(path string, maxMem int64) (*model.FRDump, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("flight recorder: %w", err)
	}
	v, err := decodeDump(b)
	if err == nil {
		err = source.CheckMemory(maxMem)
	}
	if err != nil {
		return nil, &source.FileError{Path: path, Offset: errOffset(err), Unit: "byte", Err: err}
	}
	d, err := dumpFrom(v, maxMem)
	if err == nil {
		d.Path = path
		d.Rank, err = dumpRank(d)
	}
	if err != nil {
		return nil, &source.FileError{Path: path, Offset: -1, Err: err}
	}
	return d, nil
}

func errOffset(err error) int64 {
	if pe, ok := err.(*pickle.Error); ok {
		return pe.Offset
	}
	return -1
}

func decodeDump(b []byte) (any, error) {
	if len(b) > 0 && b[0] == 0x80 {
		return pickle.DecodeBytes(b)
	}
	dec := json.NewDecoder(bufio.NewReader(bytes.NewReader(b)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("neither a pickle nor JSON: %w", err)
	}
	return v, nil
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
