package dataset

// The row types below define the Parquet schema of each file. Column order
// and names are part of the dataset format (docs/dataset.md); changing them
// needs a new SchemaVersion.

// eventRow is one row of an events file: the event, then its collective.
type eventRow struct {
	eventCore
	eventColl
}

type eventCore struct {
	Rank   int32  `parquet:"rank"`
	Start  int64  `parquet:"start_ns,delta"`
	Dur    int64  `parquet:"dur_ns"`
	Kind   string `parquet:"kind,dict"`
	Name   string `parquet:"name,dict"`
	Stream int32  `parquet:"stream"`
	Corr   int64  `parquet:"corr"`
	Iter   int32  `parquet:"iter"`
	Micro  int32  `parquet:"micro"`
	Coll   int32  `parquet:"coll"`
}

// eventColl is the event's collective (row coll of collectives.parquet),
// joined in so that queries and ReadRanks need no join; "none", "" and -1
// when coll is -1.
type eventColl struct {
	Op        string `parquet:"op,dict"`
	Bytes     int64  `parquet:"bytes"`
	DType     string `parquet:"dtype,dict"`
	Comm      int32  `parquet:"comm"`
	Seq       int64  `parquet:"seq"`
	Peer      int32  `parquet:"peer"`
	GroupSize int32  `parquet:"group_size"`
}

type rankRow struct {
	Rank      int32  `parquet:"rank"`
	Host      string `parquet:"host,dict"`
	PID       int64  `parquet:"pid"`
	LocalGPU  int32  `parquet:"local_gpu"`
	GPUName   string `parquet:"gpu_name,dict"`
	GPUUUID   string `parquet:"gpu_uuid"`
	BusID     string `parquet:"bus_id"`
	TP        int32  `parquet:"tp"`
	PP        int32  `parquet:"pp"`
	DP        int32  `parquet:"dp"`
	CP        int32  `parquet:"cp"`
	EP        int32  `parquet:"ep"`
	Source    int32  `parquet:"source"`
	ClockBase int64  `parquet:"clock_base_ns"`
}

type streamRow struct {
	Stream int32  `parquet:"stream"`
	Rank   int32  `parquet:"rank"`
	GPU    bool   `parquet:"gpu"`
	ID     int64  `parquet:"id"`
	Device int32  `parquet:"device"`
	Name   string `parquet:"name,dict"`
}

type commRow struct {
	Comm    int32   `parquet:"comm"`
	ID      string  `parquet:"id"`
	Name    string  `parquet:"name,dict"`
	Desc    string  `parquet:"desc,dict"`
	Members []int32 `parquet:"members,list"`
	Axis    string  `parquet:"axis,dict"`
	AxisBy  string  `parquet:"axis_by,dict"`
}

type collRow struct {
	Coll      int32  `parquet:"coll"`
	Op        string `parquet:"op,dict"`
	Bytes     int64  `parquet:"bytes"`
	DType     string `parquet:"dtype,dict"`
	Comm      int32  `parquet:"comm"`
	Seq       int64  `parquet:"seq"`
	Peer      int32  `parquet:"peer"`
	GroupSize int32  `parquet:"group_size"`
}

type sampleGPURow struct {
	GPU   int32  `parquet:"gpu"`
	Host  string `parquet:"host,dict"`
	Index int32  `parquet:"index"`
	UUID  string `parquet:"uuid"`
	BusID string `parquet:"bus_id"`
	Name  string `parquet:"name,dict"`
}

// sampleRowV1 is a row of samples.parquet before schema version 2, which
// made the table the one samples schema (samplepq.Row); read only.
type sampleRowV1 struct {
	GPU            int32  `parquet:"gpu"`
	TimeNs         int64  `parquet:"time_ns,delta"`
	SMUtil         int32  `parquet:"sm_util"`
	MemUtil        int32  `parquet:"mem_util"`
	SMClockMHz     int32  `parquet:"sm_clock_mhz"`
	MemClockMHz    int32  `parquet:"mem_clock_mhz"`
	PowerMW        int32  `parquet:"power_mw"`
	PowerLimitMW   int32  `parquet:"power_limit_mw"`
	TempC          int32  `parquet:"temp_c"`
	MemUsedBytes   int64  `parquet:"mem_used_bytes"`
	ClockReasons   uint64 `parquet:"clock_reasons"`
	PCIeTxKBs      int32  `parquet:"pcie_tx_kbs"`
	PCIeRxKBs      int32  `parquet:"pcie_rx_kbs"`
	NVLinkTxKBs    int64  `parquet:"nvlink_tx_kbs"`
	NVLinkRxKBs    int64  `parquet:"nvlink_rx_kbs"`
	ECCUncorrected int64  `parquet:"ecc_uncorrected"`
	XID            int32  `parquet:"xid"`
}

type skipRow struct {
	Source string `parquet:"source,dict"`
	Offset int64  `parquet:"offset"`
	Unit   string `parquet:"unit,dict"`
	Reason string `parquet:"reason,dict"`
	Count  int64  `parquet:"count"`
}
