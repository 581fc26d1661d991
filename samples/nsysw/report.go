package nsysw

import (
	"github.com/tpptrace/tpptrace/model"
)

// writer writes the ranks of one report.
type writer struct {
	f        *file
	tr       *model.Trace
	opts     Options
	ranks    []int32
	base     int64              // session start: model time = base + row time
	nextCorr int64              // correlation ids for synthesized launches
	runtime  map[[2]int64]int32 // (rank, corr) -> model runtime event
}

const (
	usec       = int64(1000)
	vm         = int64(1) << 48
	kernelCols = "start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName, launchType, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId"
)

func writeReport(path string, tr *model.Trace, ranks []int32, opts Options) error {
	f, err := create(path)
	if err != nil {
		return err
	}
	w := &writer{f: f, tr: tr, opts: opts, ranks: ranks, nextCorr: 1 << 40, runtime: map[[2]int64]int32{}}
	w.base = w.sessionStart()
	if err := w.write(); err != nil {
		f.close()
		return err
	}
	return f.close()
}

// sessionStart is 1 ms before the first event of the report's ranks.
func (w *writer) sessionStart() int64 {
	first, ok := int64(0), false
	for _, r := range w.ranks {
		lo, hi := w.tr.Events.RankRange(r)
		for i := lo; i < hi; i++ {
			if s := w.tr.Events.Start[i]; !ok || s < first {
				first, ok = s, true
			}
		}
	}
	return first - 1000*usec
}

func (w *writer) write() error {
	if err := w.writeMeta(); err != nil {
		return err
	}
	if !w.opts.NoNVTX {
		if err := w.nvtx(w.base, nil, nvtxDomainCreate, w.gtid(w.ranks[0], -1), 1, "NCCL", ""); err != nil {
			return err
		}
	}
	for _, r := range w.ranks {
		if err := w.writeRank(r); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) writeRank(r int32) error {
	if err := w.writeInits(r); err != nil {
		return err
	}
	ev := &w.tr.Events
	lo, hi := ev.RankRange(r)
	for i := lo; i < hi; i++ {
		if ev.Kind[i] == model.KindRuntime && ev.Corr[i] >= 0 {
			w.runtime[[2]int64{int64(r), ev.Corr[i]}] = int32(i)
		}
	}
	for i := lo; i < hi; i++ {
		if err := w.writeEvent(i); err != nil {
			return err
		}
	}
	return w.memUsage(r)
}

func (w *writer) writeEvent(i int) error {
	e := w.tr.Events.At(i)
	switch e.Kind {
	case model.KindCompute, model.KindComm:
		return w.kernel(e)
	case model.KindMemcpy, model.KindMemset:
		return w.memory(e)
	case model.KindRuntime:
		return w.runtimeRow(e.Start, e.End(), w.gtid(e.Rank, e.Stream), e.Corr, w.tr.Names.Get(e.Name))
	case model.KindAnnotation, model.KindCPUOp:
		if w.opts.NoNVTX {
			return nil
		}
		name, ok := w.rangeName(w.tr.Names.Get(e.Name))
		if !ok {
			return nil
		}
		end := e.End()
		return w.nvtx(e.Start, &end, nvtxPushPop, w.gtid(e.Rank, e.Stream), 0, name, "")
	}
	return nil
}

// pid is the process id written for rank r. DialectReal reverses the
// ids (and thread ids, osID) so that process order never follows rank
// order, as with real launchers.
func (w *writer) pid(r int32) int64 {
	if i := w.tr.FindRank(r); i >= 0 && w.tr.Ranks[i].PID > 0 {
		return w.osID(w.tr.Ranks[i].PID)
	}
	return w.osID(10000 + int64(r))
}

// osID is a process or thread id as written.
func (w *writer) osID(id int64) int64 {
	id &= 0xFFFFFF
	if w.opts.Dialect == DialectReal {
		return 0xFFFFFF - id
	}
	return id
}

func (w *writer) gpid(r int32) int64 { return vm | w.pid(r)<<24 }

// gtid is the thread of a CPU event: its stream's thread, else the main thread.
func (w *writer) gtid(r int32, stream int32) int64 {
	tid := w.pid(r)
	if stream >= 0 && !w.tr.Streams[stream].GPU {
		tid = w.osID(w.tr.Streams[stream].ID)
	}
	return w.gpid(r) | tid
}

// device and stream id of a GPU event.
func (w *writer) device(e model.Event) (dev, stream int64) {
	if e.Stream >= 0 {
		s := w.tr.Streams[e.Stream]
		return int64(max(s.Device, 0)), s.ID
	}
	if i := w.tr.FindRank(e.Rank); i >= 0 {
		return int64(max(w.tr.Ranks[i].LocalGPU, 0)), 7
	}
	return 0, 7
}
