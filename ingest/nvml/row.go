package nvml

import (
	"slices"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// Row is one sampling pass over one GPU, as stored in Parquet. Only
// standard types are used so that DuckDB, pyarrow and Spark read it. Values
// a GPU does not support are -1.
type Row struct {
	Host           string  `parquet:"host,dict"`
	GPUIndex       int32   `parquet:"gpu_index"`
	UUID           string  `parquet:"uuid,dict"`
	BusID          string  `parquet:"bus_id,dict"`
	Name           string  `parquet:"name,dict"`
	TimeNs         int64   `parquet:"time_ns"` // host wall clock, Unix epoch ns
	SMUtil         int32   `parquet:"sm_util_pct"`
	MemUtil        int32   `parquet:"mem_util_pct"`
	SMClockMHz     int32   `parquet:"sm_clock_mhz"`
	MemClockMHz    int32   `parquet:"mem_clock_mhz"`
	PowerMW        int32   `parquet:"power_mw"`
	PowerLimitMW   int32   `parquet:"power_limit_mw"`
	TempC          int32   `parquet:"temp_c"`
	MemUsedBytes   int64   `parquet:"mem_used_bytes"`
	ClockReasons   int64   `parquet:"clock_event_reasons"` // NVML bitmask
	PCIeTxKBs      int32   `parquet:"pcie_tx_kbps"`
	PCIeRxKBs      int32   `parquet:"pcie_rx_kbps"`
	NVLinkTxKBs    int64   `parquet:"nvlink_tx_kbps"`
	NVLinkRxKBs    int64   `parquet:"nvlink_rx_kbps"`
	ECCUncorrected int64   `parquet:"ecc_uncorrected"`
	XID            int32   `parquet:"xid"`
	GPMSMUtil      float64 `parquet:"gpm_sm_util_pct"`
	GPMTensorUtil  float64 `parquet:"gpm_tensor_util_pct"`
}

// gpuKey identifies a sampled GPU.
type gpuKey struct {
	host, uuid, bus string
	index           int32
}

// ToTrace converts rows into a trace holding only GPU samples.
func ToTrace(rows []Row) *model.Trace {
	sk := newSink()
	sk.add(rows, int64(len(rows)))
	sortSamples(sk.t.Samples)
	return sk.t
}

// sink turns rows into a trace's samples as they are read: a GPU's
// identity is kept once, a row as one model.GPUSample.
type sink struct {
	t   *model.Trace
	ids map[gpuKey]int32
}

func newSink() *sink { return &sink{t: &model.Trace{}, ids: map[gpuKey]int32{}} }

// add appends rows; hint, when positive, is how many more rows to expect.
func (sk *sink) add(rows []Row, hint int64) {
	if hint > 0 {
		sk.t.Samples = slices.Grow(sk.t.Samples, int(hint))
	}
	for _, r := range rows {
		k := gpuKey{r.Host, r.UUID, r.BusID, r.GPUIndex}
		id, ok := sk.ids[k]
		if !ok {
			id = int32(len(sk.t.SampleGPUs))
			sk.ids[k] = id
			sk.t.SampleGPUs = append(sk.t.SampleGPUs, model.SampledGPU{Host: r.Host, Index: r.GPUIndex, UUID: r.UUID, BusID: r.BusID, Name: r.Name})
		}
		sk.t.Samples = append(sk.t.Samples, r.toSample(id))
	}
}

func (r Row) toSample(gpu int32) model.GPUSample {
	return model.GPUSample{GPU: gpu, TimeNs: r.TimeNs, SMUtil: r.SMUtil, MemUtil: r.MemUtil,
		SMClockMHz: r.SMClockMHz, MemClockMHz: r.MemClockMHz, PowerMW: r.PowerMW, PowerLimitMW: r.PowerLimitMW,
		TempC: r.TempC, MemUsedBytes: r.MemUsedBytes, ClockReasons: uint64(r.ClockReasons),
		PCIeTxKBs: r.PCIeTxKBs, PCIeRxKBs: r.PCIeRxKBs, NVLinkTxKBs: r.NVLinkTxKBs, NVLinkRxKBs: r.NVLinkRxKBs,
		ECCUncorrected: r.ECCUncorrected, XID: r.XID, GPMSMUtil: r.GPMSMUtil, GPMTensorUtil: r.GPMTensorUtil}
}

// FromTrace converts a trace's GPU samples back into rows.
func FromTrace(t *model.Trace) []Row {
	rows := make([]Row, 0, len(t.Samples))
	for _, s := range t.Samples {
		g := t.SampleGPUs[s.GPU]
		rows = append(rows, Row{Host: g.Host, GPUIndex: g.Index, UUID: g.UUID, BusID: g.BusID, Name: g.Name,
			TimeNs: s.TimeNs, SMUtil: s.SMUtil, MemUtil: s.MemUtil, SMClockMHz: s.SMClockMHz,
			MemClockMHz: s.MemClockMHz, PowerMW: s.PowerMW, PowerLimitMW: s.PowerLimitMW, TempC: s.TempC,
			MemUsedBytes: s.MemUsedBytes, ClockReasons: int64(s.ClockReasons), PCIeTxKBs: s.PCIeTxKBs,
			PCIeRxKBs: s.PCIeRxKBs, NVLinkTxKBs: s.NVLinkTxKBs, NVLinkRxKBs: s.NVLinkRxKBs,
			ECCUncorrected: s.ECCUncorrected, XID: s.XID, GPMSMUtil: s.GPMSMUtil, GPMTensorUtil: s.GPMTensorUtil})
	}
	return rows
}
