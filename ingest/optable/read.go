package optable

import (
	"errors"
	"fmt"
	"github.com/tpptrace/tpptrace/ingest/pqsafe"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/model"
)

// row is one op-table row as stored.
type row struct {
	DP     int32   `parquet:"dp_rank,optional"`
	Stage  int32   `parquet:"stage,optional"`
	Rank   int32   `parquet:"rank,optional"`
	Step   int64   `parquet:"step,optional"`
	OpType string  `parquet:"optype,optional"`
	Start  float32 `parquet:"start_ts,optional"`
	Dur    float32 `parquet:"duration,optional"`
	Seq    int32   `parquet:"seq_id,optional"`
	MC     int32   `parquet:"mc,optional"`
	MB     int32   `parquet:"mb_id,optional"`
	GMC    int32   `parquet:"gmc,optional"`
}

// required are the columns an op table must have.
var required = []string{"dp_rank", "stage", "rank", "step", "optype", "start_ts", "duration", "seq_id", "mc", "mb_id", "gmc"}

// Sniff reports whether path names an op table: a Parquet file whose name
// starts with "trace-".
func Sniff(path string) bool {
	b := filepath.Base(path)
	return strings.HasPrefix(b, "trace-") && strings.HasSuffix(b, ".parquet")
}

// ReadFile decodes the op table at path.
func ReadFile(path string) (*model.OpTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	t, err := Read(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Read decodes an op table from r (size bytes).
func Read(r io.ReaderAt, size int64) (t *model.OpTable, err error) {
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, fmt.Errorf("not a readable parquet file: %v", p)
		}
	}()
	pf, err := pqsafe.Open(r, size)
	if err != nil {
		return nil, fmt.Errorf("not a readable parquet file: %w", err)
	}
	if err := checkColumns(pf.Schema()); err != nil {
		return nil, err
	}
	return readRows(pf)
}

func checkColumns(s *parquet.Schema) error {
	for _, c := range required {
		if _, ok := s.Lookup(c); !ok {
			return fmt.Errorf("not an op table: no column %q", c)
		}
	}
	return nil
}

func readRows(pf *parquet.File) (*model.OpTable, error) {
	rd := parquet.NewGenericReader[row](pf)
	defer rd.Close()
	t := &model.OpTable{}
	buf := make([]row, 4096)
	var at int64
	for {
		n, err := rd.Read(buf)
		for i := range buf[:n] {
			if err := appendRow(t, &buf[i]); err != nil {
				return nil, fmt.Errorf("row %d: %w", at+int64(i), err)
			}
		}
		at += int64(n)
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", at, err)
		}
	}
}

func appendRow(t *model.OpTable, r *row) error {
	if r.OpType == "" {
		return errors.New("empty optype")
	}
	if r.Dur < 0 || r.Dur != r.Dur || r.Start != r.Start {
		return fmt.Errorf("bad start %g or duration %g", r.Start, r.Dur)
	}
	t.DP = append(t.DP, r.DP)
	t.Stage = append(t.Stage, r.Stage)
	t.Rank = append(t.Rank, r.Rank)
	t.Step = append(t.Step, r.Step)
	t.OpType = append(t.OpType, t.OpTypeID(r.OpType))
	t.Start = append(t.Start, float64(r.Start))
	t.Dur = append(t.Dur, float64(r.Dur))
	t.Seq = append(t.Seq, r.Seq)
	t.MC = append(t.MC, r.MC)
	t.GMC = append(t.GMC, r.GMC)
	t.MB = append(t.MB, r.MB)
	return nil
}
