package dataset

import (
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/samplepq"
)

// TestSamplesTableIsTheSamplesSchema: samples.parquet has exactly the
// columns, in order, of the samples files `tpptrace sample` writes.
func TestSamplesTableIsTheSamplesSchema(t *testing.T) {
	dir, _ := writeFixture(t, 1)
	got := openRaw(t, filepath.Join(dir, samplesFile)).Schema()
	want := parquet.SchemaOf(samplepq.Row{})
	if len(got.Fields()) != len(want.Fields()) {
		t.Fatalf("%d columns, want %d", len(got.Fields()), len(want.Fields()))
	}
	for i, f := range want.Fields() {
		g := got.Fields()[i]
		if g.Name() != f.Name() || g.Type().String() != f.Type().String() {
			t.Errorf("column %d: %s %s, want %s %s", i, g.Name(), g.Type(), f.Name(), f.Type())
		}
	}
}

// TestSchemaVersion1SamplesRead rewrites a dataset's samples table in the
// layout of schema version 1 (a gpu column, other names, no GPM) and reads
// the samples back.
func TestSchemaVersion1SamplesRead(t *testing.T) {
	dir, tr := writeFixture(t, 1)
	var rows []sampleRowV1
	for i := range tr.Samples.Len() {
		s := tr.Samples.At(i)
		rows = append(rows, sampleRowV1{s.GPU, s.TimeNs, s.SMUtil, s.MemUtil, s.SMClockMHz, s.MemClockMHz, s.PowerMW,
			s.PowerLimitMW, s.TempC, s.MemUsedBytes, s.ClockReasons, s.PCIeTxKBs, s.PCIeRxKBs, s.NVLinkTxKBs, s.NVLinkRxKBs,
			s.ECCUncorrected, s.XID})
	}
	opts := writeOptions(writer{tool: "tpptrace test"}, samplesFile)
	if err := writeFile(filepath.Join(dir, samplesFile), rows, opts, parquet.KeyValueMetadata(metaSchemaVersion, "1")); err != nil {
		t.Fatal(err)
	}
	got, _, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Samples.Len() != tr.Samples.Len() {
		t.Fatalf("%d samples, want %d", got.Samples.Len(), tr.Samples.Len())
	}
	for i := range tr.Samples.Len() {
		want := tr.Samples.At(i)
		want.GPMSMUtil, want.GPMTensorUtil = 0, 0
		if x := got.Samples.At(i); x != want {
			t.Fatalf("sample %d = %+v, want %+v", i, x, want)
		}
	}
}

// TestSamplesOfAnUnknownGPUAreAnError: a samples row whose GPU is not in
// sample_gpus.parquet makes the dataset unreadable.
func TestSamplesOfAnUnknownGPUAreAnError(t *testing.T) {
	dir, tr := writeFixture(t, 1)
	rows := samplepq.AppendRows(nil, tr, 0, tr.Samples.Len())
	rows[0].UUID = "GPU-elsewhere"
	opts := writeOptions(writer{tool: "tpptrace test"}, samplesFile)
	if err := writeFile(filepath.Join(dir, samplesFile), rows, opts); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(dir); err == nil {
		t.Fatal("a sample of a GPU sample_gpus lacks was read")
	}
}
