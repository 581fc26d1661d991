package samplepq

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/pqsafe"
	"github.com/tpptrace/tpptrace/model"
)

// randomRows are rows of gpus GPUs with every column varying.
func randomRows(n, gpus int) []Row {
	rng := rand.New(rand.NewPCG(7, 8))
	rows := make([]Row, n)
	for i := range rows {
		g := i % gpus
		rows[i] = Row{Host: "node" + string(rune('a'+g%3)), GPUIndex: int32(g), UUID: "GPU-" + string(rune('A'+g)),
			BusID: "0000:" + string(rune('0'+g)), Name: "H100", TimeNs: 1e18 + int64(i)*1e7 + rng.Int64N(1000),
			SMUtil: rng.Int32N(101), MemUtil: rng.Int32N(101) - 1, SMClockMHz: 1000 + rng.Int32N(1000), MemClockMHz: 2619,
			PowerMW: rng.Int32N(700_000), PowerLimitMW: 700_000, TempC: 30 + rng.Int32N(60), MemUsedBytes: rng.Int64N(80 << 30),
			ClockReasons: rng.Uint64(), PCIeTxKBs: rng.Int32(), PCIeRxKBs: -1, NVLinkTxKBs: rng.Int64(), NVLinkRxKBs: rng.Int64N(1e9),
			ECCUncorrected: rng.Int64N(3), XID: rng.Int32N(2) * 79, GPMSMUtil: rng.Float64() * 100, GPMTensorUtil: -1}
	}
	return rows
}

func encode(t *testing.T, rows []Row, opts ...parquet.WriterOption) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteRows(&b, rows, opts...); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func open(t *testing.T, b []byte) *parquet.File {
	t.Helper()
	pf, err := pqsafe.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pf
}

// oracle reads b with parquet-go's row reader, as the samples were read
// before the columnar reader.
func oracle(t *testing.T, b []byte) []Row {
	t.Helper()
	r := parquet.NewGenericReader[Row](bytes.NewReader(b))
	defer r.Close()
	rows := make([]Row, r.NumRows())
	if n, err := r.Read(rows); n != len(rows) || err != nil && !errors.Is(err, io.EOF) {
		t.Fatalf("oracle read %d of %d rows: %v", n, len(rows), err)
	}
	return rows
}

// TestColumnarReadMatchesRowReader writes rows over many row groups and
// small pages, and compares what the columnar reader makes of them with
// parquet-go's row reader, value by value.
func TestColumnarReadMatchesRowReader(t *testing.T) {
	b := encode(t, randomRows(20_000, 5), parquet.MaxRowsPerRowGroup(3000), parquet.PageBufferSize(2048))
	sk := NewSink(&model.Trace{})
	if err := sk.Read(open(t, b)); err != nil {
		t.Fatal(err)
	}
	want := oracle(t, b)
	got := AppendRows(nil, sk.T, 0, sk.T.Samples.Len())
	if len(got) != len(want) || len(sk.T.SampleGPUs) != 5 {
		t.Fatalf("%d rows on %d GPUs, want %d on 5", len(got), len(sk.T.SampleGPUs), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// TestRandomSamplesKeepTensOfBytes: with every column varying, as on a busy
// GPU, a sample keeps at most 64 bytes (it was 120 as a struct).
func TestRandomSamplesKeepTensOfBytes(t *testing.T) {
	const n = 128 * 400
	rows := randomRows(n, 8)
	for i := range rows { // values as NVML gives them: wide ones vary little
		rows[i].ClockReasons &= 0x1ff
		rows[i].PCIeTxKBs &= 0xfffff
		rows[i].NVLinkTxKBs &= 0xffffffff
		rows[i].GPMSMUtil = float64(int(rows[i].GPMSMUtil*10)) / 10
	}
	tr := &model.Trace{}
	sk := NewSink(tr)
	if err := sk.Read(open(t, encode(t, rows))); err != nil {
		t.Fatal(err)
	}
	per := tr.Samples.Bytes() / n
	t.Logf("%d B per sample", per)
	if per > 64 {
		t.Errorf("%d B per sample, want at most 64", per)
	}
}

// TestHostileSamplesStayBounded: with every column random over its whole
// range a sample keeps at most 112 bytes (8 per 64-bit column, 4 per
// 32-bit one, the block headers).
func TestHostileSamplesStayBounded(t *testing.T) {
	const n = 128 * 1000
	rng := rand.New(rand.NewPCG(9, 10))
	tr := &model.Trace{}
	for i := range n {
		tr.Samples.Append(model.GPUSample{GPU: int32(i % 8), TimeNs: rng.Int64(), SMUtil: rng.Int32(), MemUtil: rng.Int32(),
			SMClockMHz: rng.Int32(), MemClockMHz: rng.Int32(), PowerMW: rng.Int32(), PowerLimitMW: rng.Int32(), TempC: rng.Int32(),
			MemUsedBytes: rng.Int64(), ClockReasons: rng.Uint64(), PCIeTxKBs: rng.Int32(), PCIeRxKBs: rng.Int32(),
			NVLinkTxKBs: rng.Int64(), NVLinkRxKBs: rng.Int64(), ECCUncorrected: rng.Int64(), XID: rng.Int32(),
			GPMSMUtil: rng.NormFloat64(), GPMTensorUtil: rng.NormFloat64()})
	}
	per := tr.Samples.Bytes() / n
	t.Logf("%d B per sample", per)
	if per > 112 {
		t.Errorf("%d B per sample, want at most 112", per)
	}
}

type otherRow struct {
	Host   string  `parquet:"host"`
	TimeNs int64   `parquet:"time_ns"`
	SMUtil int64   `parquet:"sm_util_pct,dict"`
	Temp   *int32  `parquet:"temp_c,optional"`
	GPM    float64 `parquet:"gpm_sm_util_pct"`
}

// TestOtherLayoutsRead: plain strings, a dictionary-encoded INT64 where
// the schema has INT32, an optional column without nulls, and missing
// columns (zero).
func TestOtherLayoutsRead(t *testing.T) {
	v := int32(55)
	rows := []otherRow{{"n0", 10, 7, &v, 1.5}, {"n0", 20, 8, &v, 2.5}, {"n1", 5, 9, &v, -1}}
	var b bytes.Buffer
	if err := parquet.Write(&b, rows); err != nil {
		t.Fatal(err)
	}
	tr := &model.Trace{}
	if err := NewSink(tr).Read(open(t, b.Bytes())); err != nil {
		t.Fatal(err)
	}
	if tr.Samples.Len() != 3 || len(tr.SampleGPUs) != 2 || tr.SampleGPUs[1].Host != "n1" {
		t.Fatalf("%d samples, GPUs %+v", tr.Samples.Len(), tr.SampleGPUs)
	}
	x := tr.Samples.At(1)
	if x.TimeNs != 20 || x.SMUtil != 8 || x.TempC != 55 || x.GPMSMUtil != 2.5 || x.PowerMW != 0 || x.GPU != 0 {
		t.Fatalf("sample 1 = %+v", x)
	}
}

func TestBadColumnsAreErrors(t *testing.T) {
	type wrongType struct {
		TimeNs string `parquet:"time_ns"`
	}
	type noTime struct {
		SMUtil int32 `parquet:"sm_util_pct"`
	}
	type nulls struct {
		TimeNs *int64 `parquet:"time_ns,optional"`
	}
	type repeated struct {
		TimeNs []int64 `parquet:"time_ns"`
	}
	ten := int64(10)
	cases := map[string]func(*bytes.Buffer) error{
		"has type":    func(b *bytes.Buffer) error { return parquet.Write(b, []wrongType{{"x"}}) },
		"no time_ns":  func(b *bytes.Buffer) error { return parquet.Write(b, []noTime{{1}}) },
		"nulls":       func(b *bytes.Buffer) error { return parquet.Write(b, []nulls{{&ten}, {nil}}) },
		"is repeated": func(b *bytes.Buffer) error { return parquet.Write(b, []repeated{{[]int64{1}}}) },
	}
	for want, write := range cases {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		err := NewSink(&model.Trace{}).Read(open(t, b.Bytes()))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v", want, err)
		}
	}
}

// TestGPUsPastTheLimitAreDropped: a file naming a new GPU in every row
// keeps MaxGPUs of them and counts the other rows.
func TestGPUsPastTheLimitAreDropped(t *testing.T) {
	rows := make([]Row, MaxGPUs+10)
	for i := range rows {
		rows[i] = Row{Host: "h", GPUIndex: int32(i), TimeNs: int64(i)}
	}
	sk := NewSink(&model.Trace{})
	if err := sk.Read(open(t, encode(t, rows))); err != nil {
		t.Fatal(err)
	}
	if len(sk.T.SampleGPUs) != MaxGPUs || sk.T.Samples.Len() != MaxGPUs || sk.TakeDropped() != 10 || sk.TakeDropped() != 0 {
		t.Fatalf("%d GPUs, %d samples", len(sk.T.SampleGPUs), sk.T.Samples.Len())
	}
}
