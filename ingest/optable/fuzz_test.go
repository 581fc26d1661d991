package optable

import (
	"bytes"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// tiny writes a two-row op table.
func tiny(tb testing.TB) []byte {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf)
	rows := []row{
		{DP: 0, Stage: 0, Rank: 0, Step: 3, OpType: "forward-compute", Start: 0, Dur: 0.5, Seq: 0, MC: 0, MB: 0, GMC: 0},
		{DP: 0, Stage: 0, Rank: 0, Step: 3, OpType: "optimizer", Start: 0.5, Dur: 0.25, Seq: 0, MC: -1, MB: -1, GMC: -1},
	}
	if _, err := w.Write(rows); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadTiny(t *testing.T) {
	b := tiny(t)
	tab, err := Read(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 2 || tab.OpTypes[tab.OpType[1]] != "optimizer" || tab.Dur[0] != 0.5 || tab.Step[1] != 3 || tab.MC[1] != -1 {
		t.Fatalf("table %+v", tab)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(tiny(f))
	f.Add([]byte("PAR1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tab, err := Read(bytes.NewReader(b), int64(len(b)))
		if err == nil && tab.Len() != len(tab.Dur) {
			t.Fatalf("ragged table")
		}
	})
}
