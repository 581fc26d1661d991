package nsysw

import "github.com/tpptrace/tpptrace/model"

// memTable and its DDL, from the Nsight Systems SQLite schema reference
// (the real 2025.1.1 export was captured without --cuda-memory-usage and
// lacks the table; its ENUM_CUDA_MEM_KIND and ENUM_CUDA_DEV_MEM_EVENT_OPER
// give the values written).
const (
	memTable = "CUDA_GPU_MEMORY_USAGE_EVENTS"
	memCols  = "start, globalPid, deviceId, contextId, address, pc, bytes, memKind, memoryOperationType"
	memDDL   = `CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    globalPid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    address                     INTEGER   NOT NULL,                    -- Virtual address of the allocation/deallocation.
    pc                          INTEGER   NOT NULL,                    -- Program counter of the allocation/deallocation.
    bytes                       INTEGER   NOT NULL,                    -- Number of bytes allocated/deallocated (B).
    memKind                     INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUDA_MEM_KIND(id)
    memoryOperationType         INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUDA_DEV_MEM_EVENT_OPER(id)
    name                        TEXT,                                  -- Variable name, if available.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    localMemoryPoolAddress      INTEGER,                               -- Base address of the local memory pool used.
    localMemoryPoolReleaseThreshold   INTEGER,                         -- Release threshold of the local memory pool used.
    localMemoryPoolSize         INTEGER,                               -- Size of the local memory pool used.
    localMemoryPoolUtilizedSize INTEGER,                               -- Utilized size of the local memory pool used.
    importedMemoryPoolAddress   INTEGER,                               -- Base address of the imported memory pool used.
    importedMemoryPoolProcessId INTEGER                                -- Process ID of the imported memory pool used.
)`
	memKindDevice = 2 // ENUM_CUDA_MEM_KIND Device
	memOpAlloc    = 0 // ENUM_CUDA_DEV_MEM_EVENT_OPER Allocation
	memOpFree     = 1 // Deallocation
	memAddrBase   = 0x7f000000 << 16
	memAlign      = 2 << 20 // cudaMalloc granularity of the addresses written
)

func init() { ddl[memTable] = memDDL }

// block is one live allocation written.
type block struct{ addr, bytes int64 }

// memWriter turns rank r's allocated-memory levels into allocations and
// frees of whole blocks, as cudaMalloc/cudaFree rows: a rise allocates one
// block of the difference; a fall frees the newest blocks until the level
// is at most the new one, then allocates what remains. The running total of
// the rows is exactly the level series.
type memWriter struct {
	w           *writer
	r           int32
	dev         int64
	next, level int64
	live        []block
}

// memUsage writes rank r's memory rows (none without memory counters).
func (w *writer) memUsage(r int32) error {
	id, ok := w.tr.Names.Lookup(model.CounterMemAllocated)
	if !ok {
		return nil
	}
	dev, _ := w.device(model.Event{Rank: r, Stream: -1})
	m := &memWriter{w: w, r: r, dev: dev, next: memAddrBase}
	c := &w.tr.Counters
	for i := 0; i < c.Len(); i++ {
		if c.Rank[i] != r || c.Name[i] != id {
			continue
		}
		if err := m.to(c.Time[i], c.Value[i]); err != nil {
			return err
		}
	}
	return nil
}

// to brings the live bytes to v at time t.
func (m *memWriter) to(t, v int64) error {
	for m.level > v && len(m.live) > 0 {
		b := m.live[len(m.live)-1]
		m.live = m.live[:len(m.live)-1]
		m.level -= b.bytes
		if err := m.row(t, b, memOpFree); err != nil {
			return err
		}
	}
	if v <= m.level {
		return nil
	}
	b := block{m.next, v - m.level}
	m.next += (b.bytes + memAlign - 1) / memAlign * memAlign
	m.live, m.level = append(m.live, b), v
	return m.row(t, b, memOpAlloc)
}

func (m *memWriter) row(t int64, b block, op int) error {
	return m.w.f.insert(memTable, memCols, t-m.w.base, m.w.gpid(m.r), m.dev, 1, b.addr, 0, b.bytes, memKindDevice, op)
}
