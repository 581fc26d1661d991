package samplepq

import (
	"math"

	"github.com/tpptrace/tpptrace/model"
)

// Row is one sampling pass over one GPU, as stored in Parquet: the samples
// file and the dataset's samples table both have exactly these columns.
// Only standard types are used so that DuckDB, pyarrow and Spark read it.
// Values a GPU does not support are -1.
type Row struct {
	Host           string  `parquet:"host,dict"`
	GPUIndex       int32   `parquet:"gpu_index"`
	UUID           string  `parquet:"uuid,dict"`
	BusID          string  `parquet:"bus_id,dict"`
	Name           string  `parquet:"name,dict"`
	TimeNs         int64   `parquet:"time_ns,delta"` // host wall clock, Unix epoch ns
	SMUtil         int32   `parquet:"sm_util_pct"`
	MemUtil        int32   `parquet:"mem_util_pct"`
	SMClockMHz     int32   `parquet:"sm_clock_mhz"`
	MemClockMHz    int32   `parquet:"mem_clock_mhz"`
	PowerMW        int32   `parquet:"power_mw"`
	PowerLimitMW   int32   `parquet:"power_limit_mw"`
	TempC          int32   `parquet:"temp_c"`
	MemUsedBytes   int64   `parquet:"mem_used_bytes"`
	ClockReasons   uint64  `parquet:"clock_event_reasons"` // NVML bitmask
	PCIeTxKBs      int32   `parquet:"pcie_tx_kbps"`
	PCIeRxKBs      int32   `parquet:"pcie_rx_kbps"`
	NVLinkTxKBs    int64   `parquet:"nvlink_tx_kbps"`
	NVLinkRxKBs    int64   `parquet:"nvlink_rx_kbps"`
	ECCUncorrected int64   `parquet:"ecc_uncorrected"`
	XID            int32   `parquet:"xid"`
	GPMSMUtil      float64 `parquet:"gpm_sm_util_pct"`
	GPMTensorUtil  float64 `parquet:"gpm_tensor_util_pct"`
}

// column is one value column of Row (not the GPU's identity), its Parquet
// kind, and where its values go in a sample.
type column struct {
	name string
	kind kind
	set  func(*model.GPUSample, int64)
}

// kind is how a column's values are read: integers, or doubles by their bits.
type kind uint8

const (
	integer kind = iota
	double
)

// columns are Row's value columns, in Row's order.
var columns = []column{
	{"time_ns", integer, func(s *model.GPUSample, v int64) { s.TimeNs = v }},
	{"sm_util_pct", integer, func(s *model.GPUSample, v int64) { s.SMUtil = int32(v) }},
	{"mem_util_pct", integer, func(s *model.GPUSample, v int64) { s.MemUtil = int32(v) }},
	{"sm_clock_mhz", integer, func(s *model.GPUSample, v int64) { s.SMClockMHz = int32(v) }},
	{"mem_clock_mhz", integer, func(s *model.GPUSample, v int64) { s.MemClockMHz = int32(v) }},
	{"power_mw", integer, func(s *model.GPUSample, v int64) { s.PowerMW = int32(v) }},
	{"power_limit_mw", integer, func(s *model.GPUSample, v int64) { s.PowerLimitMW = int32(v) }},
	{"temp_c", integer, func(s *model.GPUSample, v int64) { s.TempC = int32(v) }},
	{"mem_used_bytes", integer, func(s *model.GPUSample, v int64) { s.MemUsedBytes = v }},
	{"clock_event_reasons", integer, func(s *model.GPUSample, v int64) { s.ClockReasons = uint64(v) }},
	{"pcie_tx_kbps", integer, func(s *model.GPUSample, v int64) { s.PCIeTxKBs = int32(v) }},
	{"pcie_rx_kbps", integer, func(s *model.GPUSample, v int64) { s.PCIeRxKBs = int32(v) }},
	{"nvlink_tx_kbps", integer, func(s *model.GPUSample, v int64) { s.NVLinkTxKBs = v }},
	{"nvlink_rx_kbps", integer, func(s *model.GPUSample, v int64) { s.NVLinkRxKBs = v }},
	{"ecc_uncorrected", integer, func(s *model.GPUSample, v int64) { s.ECCUncorrected = v }},
	{"xid", integer, func(s *model.GPUSample, v int64) { s.XID = int32(v) }},
	{"gpm_sm_util_pct", double, func(s *model.GPUSample, v int64) { s.GPMSMUtil = math.Float64frombits(uint64(v)) }},
	{"gpm_tensor_util_pct", double, func(s *model.GPUSample, v int64) { s.GPMTensorUtil = math.Float64frombits(uint64(v)) }},
}

// identity is the columns of a GPU's identity: strings, then the index.
var identity = []string{"host", "uuid", "bus_id", "name"}

const indexColumn = "gpu_index"

// Sample is r as a sample of GPU gpu.
func (r Row) Sample(gpu int32) model.GPUSample {
	return model.GPUSample{GPU: gpu, TimeNs: r.TimeNs, SMUtil: r.SMUtil, MemUtil: r.MemUtil,
		SMClockMHz: r.SMClockMHz, MemClockMHz: r.MemClockMHz, PowerMW: r.PowerMW, PowerLimitMW: r.PowerLimitMW,
		TempC: r.TempC, MemUsedBytes: r.MemUsedBytes, ClockReasons: r.ClockReasons,
		PCIeTxKBs: r.PCIeTxKBs, PCIeRxKBs: r.PCIeRxKBs, NVLinkTxKBs: r.NVLinkTxKBs, NVLinkRxKBs: r.NVLinkRxKBs,
		ECCUncorrected: r.ECCUncorrected, XID: r.XID, GPMSMUtil: r.GPMSMUtil, GPMTensorUtil: r.GPMTensorUtil}
}

// RowOf is sample s of GPU g as a row.
func RowOf(g model.SampledGPU, s model.GPUSample) Row {
	return Row{Host: g.Host, GPUIndex: g.Index, UUID: g.UUID, BusID: g.BusID, Name: g.Name,
		TimeNs: s.TimeNs, SMUtil: s.SMUtil, MemUtil: s.MemUtil, SMClockMHz: s.SMClockMHz,
		MemClockMHz: s.MemClockMHz, PowerMW: s.PowerMW, PowerLimitMW: s.PowerLimitMW, TempC: s.TempC,
		MemUsedBytes: s.MemUsedBytes, ClockReasons: s.ClockReasons, PCIeTxKBs: s.PCIeTxKBs,
		PCIeRxKBs: s.PCIeRxKBs, NVLinkTxKBs: s.NVLinkTxKBs, NVLinkRxKBs: s.NVLinkRxKBs,
		ECCUncorrected: s.ECCUncorrected, XID: s.XID, GPMSMUtil: s.GPMSMUtil, GPMTensorUtil: s.GPMTensorUtil}
}
