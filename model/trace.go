package model

// Trace is one job's normalized trace: the tables below plus the event and
// collective columns. The zero value is an empty trace ready for use.
type Trace struct {
	Ranks   []Rank         // sorted by Rank.Rank; one entry per global rank seen
	Streams []Stream       // GPU streams and CPU threads; Events.Stream indexes this
	Comms   []Communicator // communicators; Collectives.Comm indexes this
	Names   Strings        // interned strings: event names, dtypes
	Events  Events         // sorted by rank, then start
	Colls   Collectives    // collective attributes; Events.Coll indexes this

	Counters Counters // counter samples (GPU memory levels), sorted by rank, name, time

	SampleGPUs []SampledGPU // GPUs that GPU samples were taken on
	Samples    Samples      // NVML samples, sorted by GPU then time

	Sources []Source // the files the trace was read from
	Skipped []Skip   // what was read but not kept, and why

	// World is what the inputs say the job's size is (Kineto's
	// distributedInfo.world_size, ...), with how many files say it:
	// analysis names the declared ranks no trace was read of. Merge adds
	// equal declarations up.
	World []WorldDecl
	// Absent are communicator members the inputs list but hold no trace
	// of, per communicator (they are not in Communicator.Members).
	Absent []AbsentMembers

	// Fallback marks a part whose events (collectives timed by NCCL
	// Flight Recorder or Inspector records) stand in for ranks no other
	// input has a timeline of: Merge drops them for the other ranks.
	Fallback bool

	merged mergeMark // set by Merge (see mergeMark)
}

// Rank is one process of the job, identified by its global rank.
type Rank struct {
	Rank      int32  // global rank
	Host      string // host name, "" when unknown
	PID       int64  // OS process id, 0 when unknown
	LocalGPU  int32  // CUDA device index on the host, -1 when unknown
	GPUName   string // e.g. "NVIDIA H100 80GB HBM3"
	GPUUUID   string // "GPU-..." when known
	BusID     string // PCI bus id, "0000:1B:00.0" form, when known
	Coord     Coord  // parallel coordinates, -1 where unknown
	Source    int32  // index into Trace.Sources of the file this rank came from, -1 when none
	ClockBase int64  // epoch ns of this rank's time zero when the format has one (Kineto baseTimeNanoseconds, nsys session start), else 0
}

// Coord is a rank's position in the parallel layout.
type Coord struct{ TP, PP, DP, CP, EP int32 }

// UnknownCoord has every coordinate unknown.
var UnknownCoord = Coord{-1, -1, -1, -1, -1}

// Stream is a GPU stream or a CPU thread of one rank.
type Stream struct {
	Rank   int32  // global rank
	GPU    bool   // true for a GPU stream, false for a CPU thread
	ID     int64  // CUDA stream id, or OS thread id
	Device int32  // CUDA device for GPU streams, -1 for threads
	Name   string // "stream 7", "thread 1234 (pt_main_thread)"
}

// Communicator is a process group / NCCL communicator.
type Communicator struct {
	ID      string     // stable key: process-group name, NCCL comm id, or a synthesized "ranks:0,1"
	Name    string     // process-group name when known
	Desc    string     // process-group description (Megatron names: TENSOR_MODEL_PARALLEL_GROUP ...)
	Members []int32    // global ranks, sorted ascending
	Axis    Axis       // parallel axis, AxisUnknown until decided
	AxisBy  AxisSource // how Axis was decided
}

// Source is one input file.
type Source struct {
	Path    string // as given by the user
	Format  string // "kineto", "nsys-sqlite", "nccl-log", "nvml-parquet", ...
	Version string // format or producer version when known
	Size    int64  // bytes
}

// Skip records an input item that was not kept.
type Skip struct {
	Source string // file path
	Offset int64  // byte offset or line number (see Unit), -1 when not applicable
	Unit   string // "byte", "line", "row", "" when Offset is -1
	Reason string // one line, lower case
	Count  int64  // how many items this record stands for (>= 1)
}

// SampledGPU is a GPU that NVML samples were taken on.
type SampledGPU struct {
	Host  string
	Index int32  // NVML device index
	UUID  string // "GPU-..."
	BusID string
	Name  string
}

// GPUSample is one NVML sampling pass over one GPU, one row of Samples.
// Values unsupported by the GPU are -1.
type GPUSample struct {
	GPU            int32 // index into Trace.SampleGPUs
	TimeNs         int64 // host wall clock, epoch ns
	SMUtil         int32 // %
	MemUtil        int32 // %
	SMClockMHz     int32
	MemClockMHz    int32
	PowerMW        int32 // milliwatts
	PowerLimitMW   int32
	TempC          int32
	MemUsedBytes   int64
	ClockReasons   uint64 // NVML clocks-event (throttle) reason bitmask
	PCIeTxKBs      int32  // KB/s
	PCIeRxKBs      int32
	NVLinkTxKBs    int64 // KB/s summed over links
	NVLinkRxKBs    int64
	ECCUncorrected int64   // volatile total
	XID            int32   // last XID event in the interval, 0 when none
	GPMSMUtil      float64 // GPM SM utilization %, -1 when the GPU has no GPM
	GPMTensorUtil  float64 // GPM tensor-core utilization %, -1 when the GPU has no GPM
}
