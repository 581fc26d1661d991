package nvml

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/samplepq"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// readOneByOne is Read as it was: every path read into one sink, one
// after another (the oracle of TestSamplesReadInOrder).
func readOneByOne(paths []string, opts source.Options) (*model.Trace, error) {
	sk := samplepq.NewSink(&model.Trace{})
	var errs []error
	for _, p := range paths {
		if err := readPath(p, sk); err != nil {
			errs = append(errs, err)
			skipFile(sk.T, p, err, opts)
			continue
		}
		st, _ := os.Stat(p)
		sk.T.Sources = append(sk.T.Sources, model.Source{Path: p, Format: "nvml-samples", Size: st.Size()})
	}
	if len(sk.T.Sources) == 0 && len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sk.T.Samples.Sort()
	return sk.T, nil
}

// distinctGPURows are n rows, each of a GPU of its own on host.
func distinctGPURows(n int, host string) []Row {
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{Host: host, GPUIndex: int32(i), UUID: fmt.Sprintf("GPU-%s-%d", host, i), TimeNs: int64(1e9 + i),
			SMUtil: int32(i % 100), GPMSMUtil: -1, GPMTensorUtil: -1}
	}
	return rows
}

// TestSamplesReadInOrder: files decoded on several goroutines give the
// trace, skip records and warnings of the files read one after another
// into one sink: GPUs shared across files (numbered in file order), a
// damaged file and a missing one among them, a directory of parts, and
// two files of 40,000 GPUs each, the second's past the first 65,536
// dropped and counted for it (a sink a file would keep them all), and the
// next file's, of GPUs not seen before, all dropped.
func TestSamplesReadInOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, rows []Row) string {
		p := filepath.Join(dir, name)
		if err := WriteFile(p, rows); err != nil {
			t.Fatal(err)
		}
		return p
	}
	parts := filepath.Join(dir, "run.parquet.parts")
	os.Mkdir(parts, 0o755)
	write("run.parquet.parts/part-000000.parquet", testRows(6, "n2"))
	write("run.parquet.parts/part-000001.parquet", testRows(5, "n0"))
	bad := filepath.Join(dir, "bad.parquet")
	os.WriteFile(bad, []byte("PAR1 not really"), 0o644)
	paths := []string{write("a.parquet", testRows(8, "n0")), bad, write("c.parquet", append(testRows(4, "n1"), testRows(3, "n0")...)),
		parts, filepath.Join(dir, "missing.parquet"), write("big1.parquet", distinctGPURows(40_000, "h1")),
		write("big2.parquet", distinctGPURows(40_000, "h2")), write("e.parquet", testRows(2, "n3"))}
	var want []string
	wantT, err := readOneByOne(paths, source.Options{Warn: func(m string) { want = append(want, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(wantT.Skipped) != 4 || wantT.Skipped[2].Count != 80_000+6-samplepq.MaxGPUs || wantT.Skipped[3].Count != 2 {
		t.Fatalf("the oracle's skips: %+v", wantT.Skipped)
	}
	for _, workers := range []int{1, 3, 8} {
		var got []string
		gotT, err := Read(context.Background(), paths, source.Options{Workers: workers, Warn: func(m string) { got = append(got, m) }})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotT, wantT) || !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers: %d samples, %d GPUs, skips %+v, sources %d, warnings %q\nwant %d, %d, %+v, %d, %q", workers,
				gotT.Samples.Len(), len(gotT.SampleGPUs), gotT.Skipped, len(gotT.Sources), got,
				wantT.Samples.Len(), len(wantT.SampleGPUs), wantT.Skipped, len(wantT.Sources), want)
		}
	}
}
