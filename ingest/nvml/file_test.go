package nvml

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/tpptrace/tpptrace/ingest/source"
)

func testRows(n int, host string) []Row {
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{Host: host, GPUIndex: int32(i % 2), UUID: "GPU-" + string(rune('a'+i%2)), TimeNs: int64(1e9 + i*1e8),
			SMUtil: 90, SMClockMHz: int32(1900 + i), PowerMW: 600_000, GPMSMUtil: -1, GPMTensorUtil: -1}
	}
	return rows
}

func TestWriterKilledAfterFlushKeepsFlushedRows(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.parquet")
	w, err := NewWriter(out)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(testRows(4, "n0")...)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	w.Add(testRows(3, "n0")...) // never flushed: the process "dies" here
	rows, err := ReadFile(out + ".parts")
	if err != nil || len(rows) != 4 {
		t.Fatalf("parts after a kill: %d rows, err %v; want the 4 flushed rows", len(rows), err)
	}
}

func TestWriterCloseJoinsParts(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.parquet")
	w, _ := NewWriter(out)
	for i := 0; i < 3; i++ {
		w.Add(testRows(5, "n1")...)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out + ".parts"); !os.IsNotExist(err) {
		t.Fatalf("parts directory should be gone, stat err = %v", err)
	}
	tr, err := Read(context.Background(), []string{out}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Samples.Len() != 15 || len(tr.SampleGPUs) != 2 {
		t.Fatalf("got %d samples on %d GPUs, want 15 on 2", tr.Samples.Len(), len(tr.SampleGPUs))
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
}

type fakeSource struct {
	passes int
	fail   bool
}

func (f *fakeSource) Sample(now time.Time) ([]Row, error) {
	f.passes++
	if f.fail {
		return nil, errors.New("device lost")
	}
	return testRows(1, "n2"), nil
}

func (f *fakeSource) Close() error { return nil }

func TestRunStopsOnSignalAndFlushes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.parquet")
	w, _ := NewWriter(out)
	src := &fakeSource{}
	ctx, cancel := context.WithCancel(context.Background())
	passes := 0
	err := Run(ctx, src, w, Options{Interval: time.Millisecond, Flush: time.Hour, OnPass: func(int) {
		if passes++; passes == 5 {
			cancel() // what SIGINT does in the command
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ReadFile(out)
	if err != nil || len(rows) < 5 {
		t.Fatalf("after the signal the file holds %d rows (err %v); want every pass", len(rows), err)
	}
}

func TestRunReportsSourceThatNeverWorks(t *testing.T) {
	w, _ := NewWriter(filepath.Join(t.TempDir(), "s.parquet"))
	err := Run(context.Background(), &fakeSource{fail: true}, w, Options{Interval: time.Millisecond, Duration: 20 * time.Millisecond})
	if err == nil || err.Error() != "device lost" {
		t.Fatalf("want the source's error, got %v", err)
	}
}

func TestSchemaUsesStandardTypesOnly(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.parquet")
	if err := WriteFile(out, testRows(3, "n")); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(out)
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range pf.Schema().Fields() {
		typ := col.Type()
		lt := typ.LogicalType()
		switch typ.Kind() {
		case parquet.ByteArray:
			if _, ok := logicalValue(lt).(*format.StringType); !ok {
				t.Errorf("%s: byte array without STRING logical type", col.Name())
			}
		case parquet.Int32, parquet.Int64, parquet.Double:
			if v := logicalValue(lt); v != nil {
				if _, ok := v.(*format.IntType); !ok {
					t.Errorf("%s: unexpected logical type %v", col.Name(), lt)
				}
			}
		default:
			t.Errorf("%s: non-standard physical type %v", col.Name(), typ.Kind())
		}
	}
	if !Sniff(out, []byte("PAR1")) {
		t.Error("Sniff does not recognise a samples file")
	}
}

func TestReadRejectsForeignParquet(t *testing.T) {
	out := filepath.Join(t.TempDir(), "other.parquet")
	f, _ := os.Create(out)
	w := parquet.NewGenericWriter[struct{ A int64 }](f)
	w.Write([]struct{ A int64 }{{1}})
	w.Close()
	f.Close()
	if Sniff(out, []byte("PAR1")) {
		t.Error("Sniff accepted a Parquet file without the samples marker")
	}
	var fe *source.FileError
	if _, err := ReadFile(out); !errors.As(err, &fe) || fe.Path != out {
		t.Fatalf("want a FileError naming the file, got %v", err)
	}
}

func TestReadTruncatedFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.parquet")
	WriteFile(out, testRows(10, "n"))
	b, _ := os.ReadFile(out)
	os.WriteFile(out, b[:len(b)/2], 0o644)
	if _, err := ReadFile(out); err == nil {
		t.Fatal("a truncated file must be an error")
	}
}

func logicalValue(lt *format.LogicalType) format.LogicalTypeValue {
	if lt == nil {
		return nil
	}
	return lt.Value
}

// oldRow is a samples row as sampler builds before the one samples schema
// wrote it: clock_event_reasons signed, time_ns plainly encoded.
type oldRow struct {
	Host         string `parquet:"host,dict"`
	GPUIndex     int32  `parquet:"gpu_index"`
	UUID         string `parquet:"uuid,dict"`
	TimeNs       int64  `parquet:"time_ns"`
	SMClockMHz   int32  `parquet:"sm_clock_mhz"`
	ClockReasons int64  `parquet:"clock_event_reasons"`
}

func TestOlderSamplesFilesRead(t *testing.T) {
	out := filepath.Join(t.TempDir(), "old.parquet")
	f, _ := os.Create(out)
	rows := []oldRow{{"n0", 0, "GPU-a", 10, 1980, 64}, {"n0", 0, "GPU-a", 20, 1410, -1}}
	if err := parquet.Write(f, rows, parquet.KeyValueMetadata(kindKey, kindValue)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tr, err := Read(context.Background(), []string{out}, source.Options{})
	if err != nil || tr.Samples.Len() != 2 {
		t.Fatalf("%v, %d samples", err, tr.Samples.Len())
	}
	if a, b := tr.Samples.At(0), tr.Samples.At(1); a.ClockReasons != 64 || b.ClockReasons != ^uint64(0) || b.SMClockMHz != 1410 {
		t.Fatalf("samples %+v %+v", a, b)
	}
}
