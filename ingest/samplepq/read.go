package samplepq

import (
	"errors"
	"fmt"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/pqsafe"
	"github.com/tpptrace/tpptrace/model"
)

// batch is how many rows are decoded at a time.
const batch = 4096

// layout is where Row's columns are in one file: a leaf column index per
// value column and per identity column, -1 when the file lacks it (its
// values are then zero, or "").
type layout struct {
	values   []int
	identity []int // identity's strings, then gpu_index
}

// Read adds the samples of pf, which the caller opened through pqsafe, to
// the sink, under pqsafe.Guard. A column of the wrong type, with nulls or
// repeated values, or ending before its row group does, is an error.
func (s *Sink) Read(pf *parquet.File) error {
	l, err := layoutOf(pf.Schema())
	if err != nil {
		return err
	}
	return pqsafe.Guard(func() error {
		for i, rg := range pf.RowGroups() {
			if err := s.readGroup(rg, l); err != nil {
				return fmt.Errorf("row group %d: %w", i, err)
			}
		}
		return nil
	})
}

func layoutOf(sc *parquet.Schema) (layout, error) {
	var l layout
	for _, c := range columns {
		i, err := leaf(sc, c.name, c.kind == double)
		if err != nil {
			return l, err
		}
		l.values = append(l.values, i)
	}
	if l.values[0] < 0 {
		return l, errors.New("no time_ns column")
	}
	for _, name := range append(identity, indexColumn) {
		i, err := leaf(sc, name, false)
		if err != nil {
			return l, err
		}
		l.identity = append(l.identity, i)
	}
	return l, nil
}

// leaf finds a top-level column and checks its type: strings for the
// identity, DOUBLE for a double, INT32 or INT64 otherwise.
func leaf(sc *parquet.Schema, name string, dbl bool) (int, error) {
	lc, ok := sc.Lookup(name)
	if !ok {
		return -1, nil
	}
	if lc.MaxRepetitionLevel > 0 {
		return 0, fmt.Errorf("column %s is repeated", name)
	}
	k := lc.Node.Type().Kind()
	var good bool
	switch {
	case name == indexColumn || !isIdentity(name):
		good = !dbl && (k == parquet.Int32 || k == parquet.Int64) || dbl && k == parquet.Double
	default:
		good = k == parquet.ByteArray
	}
	if !good {
		return 0, fmt.Errorf("column %s has type %s", name, k)
	}
	return lc.ColumnIndex, nil
}

func isIdentity(name string) bool {
	for _, n := range identity {
		if n == name {
			return true
		}
	}
	return false
}

// readGroup reads one row group, batch by batch, every column in step.
func (s *Sink) readGroup(rg parquet.RowGroup, l layout) error {
	chunks := rg.ColumnChunks()
	vals := make([]*numbers, len(l.values))
	for c, i := range l.values {
		vals[c] = newNumbers(chunks, i, columns[c].name)
		defer vals[c].close()
	}
	idx := newNumbers(chunks, l.identity[len(identity)], indexColumn)
	defer idx.close()
	strs := make([]*texts, len(identity))
	for c := range identity {
		strs[c] = newTexts(chunks, l.identity[c], identity[c])
		defer strs[c].close()
	}
	for left := rg.NumRows(); left > 0; {
		n := int(min(left, batch))
		if err := s.readBatch(n, vals, idx, strs); err != nil {
			return err
		}
		left -= int64(n)
	}
	return nil
}

// readBatch decodes the next n rows of every column and adds them.
func (s *Sink) readBatch(n int, vals []*numbers, idx *numbers, strs []*texts) error {
	for _, c := range vals {
		if err := c.fill(n); err != nil {
			return err
		}
	}
	if err := idx.fill(n); err != nil {
		return err
	}
	for _, c := range strs {
		if err := c.fill(n); err != nil {
			return err
		}
	}
	for r := range n {
		s.addRow(r, vals, idx, strs)
	}
	if s.Check != nil {
		return s.Check()
	}
	return nil
}

func (s *Sink) addRow(r int, vals []*numbers, idx *numbers, strs []*texts) {
	id, ok := s.gpuOf(r, idx, strs)
	if !ok {
		return
	}
	s.row = model.GPUSample{GPU: id}
	for c, col := range columns {
		col.set(&s.row, vals[c].buf[r])
	}
	s.T.Samples.Append(s.row)
}

// gpuOf finds row r's GPU; its strings are made only when it is not the
// previous row's GPU.
func (s *Sink) gpuOf(r int, idx *numbers, strs []*texts) (int32, bool) {
	host, uuid, bus := strs[0].at(r), strs[1].at(r), strs[2].at(r)
	index := int32(idx.buf[r])
	if s.hasLast && index == s.last.index && string(host) == s.last.host && string(uuid) == s.last.uuid && string(bus) == s.last.bus {
		return s.lastID, true
	}
	return s.gpu(gpuKey{string(host), string(uuid), string(bus), index}, string(strs[3].at(r)))
}
