package nsys

import (
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

const kernelTable = "CUPTI_ACTIVITY_KIND_KERNEL"

// copyKinds names ENUM_CUDA_MEMCPY_OPER values.
var copyKinds = []string{"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP", "UVM HtoD", "UVM DtoH", "UVM DtoD"}

// kernelName caches, per StringIds id, the model name id and the kind.
type kernelName struct {
	id   int32
	kind model.Kind
	set  bool
}

// readKernels appends one event per kernel row. Events carry the process
// id in the Rank column until ranks are known.
func (b *builder) readKernels() error {
	nameCol := "demangledName"
	if !b.d.has(kernelTable, nameCol) {
		nameCol = "shortName"
	}
	cols := []string{"start", "end", "deviceId", "streamId", "correlationId", "globalPid", nameCol}
	cache := make([]kernelName, len(b.strs))
	var v [7]int64
	return b.d.readTable(kernelTable, cols, func(s row) {
		nulls := s.Int64s(v[:], 1<<7-1)
		kn := b.kernelName(cache, v[6])
		pid := pidOf(or(v[:], nulls, 5, 0))
		e := b.gpuEvent(v[:], pid, kn.kind, kn.id)
		e.Corr = or(v[:], nulls, 4, -1)
		b.addGPU(e)
	})
}

func (b *builder) kernelName(cache []kernelName, sid int64) kernelName {
	if sid < 0 || sid >= int64(len(cache)) {
		return kernelName{id: b.tr.Names.Intern(""), kind: model.KindCompute}
	}
	if k := cache[sid]; k.set {
		return k
	}
	name := b.strs.get(sid)
	k := kernelName{id: b.tr.Names.Intern(name), kind: model.KindCompute, set: true}
	if isCommKernel(name) {
		k.kind = model.KindComm
	}
	cache[sid] = k
	return k
}

// gpuEvent builds the event of a row whose first four columns are start,
// end, deviceId, streamId (v, from Int64s: NULL reads as 0).
func (b *builder) gpuEvent(v []int64, pid int32, kind model.Kind, name int32) model.Event {
	at, dur := b.span(v[0], v[1])
	e := model.NewEvent(pid, kind, name, at, dur)
	e.Stream = b.gpuStream(pid, v[2], v[3])
	return e
}

func (b *builder) addGPU(e model.Event) {
	b.tr.Events.Append(e)
	if e.Rank != b.lastPID || len(b.gpuPIDs) == 0 { // a process's GPU events mostly follow each other
		b.gpuPIDs[e.Rank], b.lastPID = true, e.Rank
	}
}

func (b *builder) readMemcpy() error {
	const t = "CUPTI_ACTIVITY_KIND_MEMCPY"
	if !b.d.has(t, "start", "end", "deviceId", "streamId", "correlationId", "globalPid", "copyKind") {
		return nil
	}
	cols := []string{"start", "end", "deviceId", "streamId", "correlationId", "globalPid", "copyKind"}
	var v [7]int64
	return b.d.readTable(t, cols, func(s row) {
		nulls := s.Int64s(v[:], 1<<7-1)
		name := "Memcpy " + copyKinds[0]
		if k := v[6]; k >= 0 && k < int64(len(copyKinds)) {
			name = "Memcpy " + copyKinds[k]
		}
		e := b.gpuEvent(v[:], pidOf(or(v[:], nulls, 5, 0)), model.KindMemcpy, b.tr.Names.Intern(name))
		e.Corr = or(v[:], nulls, 4, -1)
		b.addGPU(e)
	})
}

func (b *builder) readMemset() error {
	const t = "CUPTI_ACTIVITY_KIND_MEMSET"
	if !b.d.has(t, "start", "end", "deviceId", "streamId", "correlationId", "globalPid") {
		return nil
	}
	cols := []string{"start", "end", "deviceId", "streamId", "correlationId", "globalPid"}
	name := b.tr.Names.Intern("Memset")
	var v [6]int64
	return b.d.readTable(t, cols, func(s row) {
		nulls := s.Int64s(v[:], 1<<6-1)
		e := b.gpuEvent(v[:], pidOf(or(v[:], nulls, 5, 0)), model.KindMemset, name)
		e.Corr = or(v[:], nulls, 4, -1)
		b.addGPU(e)
	})
}

// eventTables are the tables whose rows become events.
var eventTables = []string{kernelTable, "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"}

// grow makes room for the events of every table at once, from each
// table's largest rowid (a cheap upper bound for exports, which never
// delete; a table claiming 2^31 rows or more counts none), and returns the
// bound of NVTX_EVENTS.
func (b *builder) grow() int {
	var have []string
	for _, t := range eventTables {
		if b.d.has(t) {
			have = append(have, t)
		}
	}
	if len(have) == 0 {
		return 0
	}
	total, nvtx := 0, 0
	for i, n := range b.d.maxRowids(have) {
		if n > 0 && n < 1<<31 {
			total += int(n)
			if have[i] == "NVTX_EVENTS" {
				nvtx = int(n)
			}
		}
	}
	b.tr.Events.Grow(min(total, 1<<31))
	return nvtx
}

// isCommKernel reports whether a kernel is an NCCL/RCCL communication kernel.
func isCommKernel(name string) bool {
	return strings.HasPrefix(strings.TrimPrefix(name, "void "), "nccl")
}

// pidOf decodes the process id of a serialized GlobalId:
// (vm << 48) | (pid << 24) | tid.
func pidOf(g int64) int32 { return int32((g >> 24) & 0xFFFFFF) }

// tidOf decodes the thread id of a serialized GlobalId.
func tidOf(g int64) int64 { return g & 0xFFFFFF }
