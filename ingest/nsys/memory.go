package nsys

import (
	"cmp"
	"slices"

	"github.com/ncruces/go-sqlite3"
	"github.com/tpptrace/tpptrace/model"
)

// memTable holds the CUDA-level device memory allocations and frees nsys
// records with --cuda-memory-usage=true (CUPTI memory activity): one row per
// cudaMalloc/cudaFree (and cuMemAlloc, pool allocations), not per tensor.
const memTable = "CUDA_GPU_MEMORY_USAGE_EVENTS"

// memColumns are the columns read; every schema that has the table has them.
var memColumns = []string{"start", "globalPid", "deviceId", "address", "bytes", "memKind", "memoryOperationType"}

// Values of ENUM_CUDA_MEM_KIND and ENUM_CUDA_DEV_MEM_EVENT_OPER (verified in
// the real 2025.1.1 export): device and device-static memory are on the
// GPU; operation 1 is a deallocation.
const (
	memKindDevice       = 2
	memKindDeviceStatic = 5
	memOpFree           = 1
)

// memRow is one allocation or free of device memory, on the session clock.
type memRow struct {
	pid              int32
	dev, t, addr, by int64
	free             bool
}

// memKey names one live allocation.
type memKey struct {
	pid       int32
	dev, addr int64
}

// readMemory keeps the device-memory rows until ranks and devices are
// known. A missing table means the capture had no memory usage tracing.
func (b *builder) readMemory() error {
	if !b.d.has(memTable) {
		return nil
	}
	if !b.d.has(memTable, memColumns...) {
		b.skipRows[memTable+" lacks one of the columns start, globalPid, deviceId, address, bytes, memKind, memoryOperationType: not read"]++
		return nil
	}
	cols := []string{"start", "globalPid", "deviceId", "address", "bytes", "memoryOperationType", "memKind"}
	return b.d.readTable(memTable, cols, func(s row) {
		if k := s.ColumnInt64(6); s.ColumnType(6) != sqlite3.INTEGER || k != memKindDevice && k != memKindDeviceStatic {
			return // host, pinned and managed memory: not on the GPU
		}
		b.mem = append(b.mem, memRow{pid: pidOf(nullInt(s, 1, 0)), dev: nullInt(s, 2, -1), t: b.instant(s.ColumnInt64(0)),
			addr: nullInt(s, 3, 0), by: nullInt(s, 4, 0), free: nullInt(s, 5, 0) == memOpFree})
	})
}

// memCounters turns the kept rows into each rank's allocated counter: the
// running total of live bytes on the rank's GPU after each row, in time
// order (rows at one instant in table order).
func (b *builder) memCounters(ranks map[int32]int32, dev map[int32]int64, base int64) {
	if len(b.mem) == 0 {
		return
	}
	slices.SortStableFunc(b.mem, func(x, y memRow) int { return cmp.Compare(x.t, y.t) })
	id := b.tr.Names.Intern(model.CounterMemAllocated)
	live, level := map[memKey]int64{}, map[int32]int64{}
	for _, m := range b.mem {
		r, ok := ranks[m.pid]
		if reason := m.unusable(ok, dev); reason != "" {
			b.skipRows[reason]++
			continue
		}
		d, ok := m.delta(live)
		if !ok {
			b.skipRows["gpu memory free of an allocation made before the capture"]++
			continue
		}
		level[m.pid] += d
		b.tr.Counters.Append(model.Counter{Rank: r, Name: id, Time: b.base + m.t - base, Value: level[m.pid]})
	}
	b.mem = nil
}

// unusable says why a row is not mapped, "" when it is.
func (m memRow) unusable(hasRank bool, dev map[int32]int64) string {
	switch {
	case !hasRank:
		return "gpu memory event of a process without gpu work"
	case m.dev != dev[m.pid]:
		return "gpu memory event on another device than the rank's gpu"
	}
	return ""
}

// delta is the change of live bytes: an allocation adds its bytes, a free
// removes the bytes of the allocation at its address (false when that
// allocation was not seen).
func (m memRow) delta(live map[memKey]int64) (int64, bool) {
	k := memKey{m.pid, m.dev, m.addr}
	if !m.free {
		prev := live[k]
		live[k] = m.by
		return m.by - prev, true
	}
	n, ok := live[k]
	delete(live, k)
	return -n, ok
}
