// Package tables holds the rows of tpptrace's summary tables (breakdown,
// kernels, nccl, nvtx): plain data that analysis/summary computes and the
// views render, standard library only like the Result.
package tables

// Stats are the order statistics of a set of durations, in ns.
type Stats struct {
	Count   int     `json:"count"`
	TotalNs int64   `json:"total_ns"`
	MeanNs  float64 `json:"mean_ns"`
	MedNs   int64   `json:"median_ns"`
	MinNs   int64   `json:"min_ns"`
	MaxNs   int64   `json:"max_ns"`
	Share   float64 `json:"share"` // of the table's total, 0..1
}

// KernelRow is one group of GPU kernels (compute, communication, memcpy,
// memset; not GPU annotations) in the window, summed over ranks.
type KernelRow struct {
	Key string `json:"key"` // the kernel name, "rank 3 stream 7", "rank 3", or the class ("compute", "comm TP", "memcpy")
	Stats
}

// RangeRow is one annotation range name (NVTX ranges, PyTorch's
// record_function / user annotations) in the window, summed over ranks;
// GPU is set for the GPU side of annotations (Kineto's
// gpu_user_annotation).
type RangeRow struct {
	Name string `json:"name"`
	GPU  bool   `json:"gpu,omitempty"`
	Stats
}

// CollRow is one communicator, op and message-size bucket: its collective
// instances in the window. Times are per member, summed over instances and
// averaged over members: TimeNs is the kernels' duration, WaitNs the part
// before the last member arrived, TransferNs the part after. BusGBps is
// nccl-tests' bus bandwidth of the transfer: bytes · factor / transfer
// time, the factor of the op over n members (all_reduce 2(n−1)/n,
// reduce_scatter and all_to_all (n−1)/n on the input size, all_gather
// n−1 on the input shard, others 1); 0 when bytes are unknown.
type CollRow struct {
	Comm       string  `json:"comm"` // the communicator's name (else its id) and description
	Axis       string  `json:"axis"`
	Op         string  `json:"op"`
	Bucket     string  `json:"bucket"` // "1 MiB–4 MiB": powers of 4 of the message size, "unknown"
	Members    int     `json:"members"`
	Count      int     `json:"count"` // instances
	Bytes      int64   `json:"bytes"` // summed over instances (input side)
	TimeNs     int64   `json:"time_ns"`
	WaitNs     int64   `json:"wait_ns"`
	TransferNs int64   `json:"transfer_ns"`
	BusGBps    float64 `json:"bus_gbps"`
}

// RankBreakdown is one rank's temporal breakdown (HTA's
// get_temporal_breakdown), communication/computation overlap
// (get_comm_comp_overlap) and kernel types, over a window. Percentages
// are of WindowNs (last GPU event end − first GPU event start).
type RankBreakdown struct {
	Rank          int     `json:"rank"`
	WindowNs      int64   `json:"window_ns"`
	IdleNs        int64   `json:"idle_ns"`
	ComputeNs     int64   `json:"compute_ns"`
	NonComputeNs  int64   `json:"non_compute_ns"`
	IdlePct       float64 `json:"idle_pct"`
	ComputePct    float64 `json:"compute_pct"`
	NonComputePct float64 `json:"non_compute_pct"`
	// OverlapPct is the share of communication time under computation,
	// -1 without communication; ExposedCommNs the rest.
	OverlapPct    float64 `json:"overlap_pct"`
	ExposedCommNs int64   `json:"exposed_comm_ns"`
	CommNs        int64   `json:"comm_ns"`   // union of communication kernels
	MemoryNs      int64   `json:"memory_ns"` // union of memcpy and memset
	CommPct       float64 `json:"comm_pct"`
	MemoryPct     float64 `json:"memory_pct"`
}

// KernelTypeRow is one row of HTA's kernel-type table: GPU time, summed
// over ranks, during which exactly this combination of kernel types runs
// ("COMPUTATION overlapping COMMUNICATION"), and its share in percent.
type KernelTypeRow struct {
	Type    string  `json:"kernel_type"`
	Ns      int64   `json:"sum_ns"`
	Percent float64 `json:"percentage"`
}
