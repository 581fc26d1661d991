package nsysw

import (
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// NVTX event types.
const (
	nvtxPushPop      = 59
	nvtxDomainCreate = 75
)

func (w *writer) kernel(e model.Event) error {
	name := w.tr.Names.Get(e.Name)
	long, err := w.f.str(name)
	if err != nil {
		return err
	}
	short, err := w.f.str(shortName(name))
	if err != nil {
		return err
	}
	launch, err := w.launch(e)
	if err != nil {
		return err
	}
	dev, stream := w.device(e)
	err = w.f.insert("CUPTI_ACTIVITY_KIND_KERNEL", kernelCols, e.Start-w.base, e.End()-w.base, dev, 1, stream, launch.Corr,
		w.gpid(e.Rank), long, short, 1, 32, 128, 1, 1, 256, 1, 1, 0, 0, 0, 0, launch.Corr)
	if err != nil || e.Kind != model.KindComm || e.Coll < 0 || w.opts.NoNVTX {
		return err
	}
	return w.ncclRange(e, launch)
}

// launch returns the runtime call that launched kernel e: the model's, or
// one written now, 8 to 5 µs before the kernel starts.
func (w *writer) launch(e model.Event) (model.Event, error) {
	if e.Corr >= 0 {
		if i, ok := w.runtime[[2]int64{int64(e.Rank), e.Corr}]; ok {
			return w.tr.Events.At(int(i)), nil
		}
	}
	w.nextCorr++
	l := model.NewEvent(e.Rank, model.KindRuntime, 0, e.Start-8*usec, 3*usec)
	l.Corr = w.nextCorr
	return l, w.runtimeRow(l.Start, l.End(), w.gtid(e.Rank, -1), l.Corr, "cudaLaunchKernel_v7000")
}

func (w *writer) runtimeRow(start, end, gtid, corr int64, name string) error {
	id, err := w.f.str(name)
	if err != nil {
		return err
	}
	var c any
	if corr >= 0 {
		c = corr
	}
	return w.f.insert("CUPTI_ACTIVITY_KIND_RUNTIME", "start, end, eventClass, globalTid, correlationId, nameId, returnValue",
		start-w.base, end-w.base, 0, gtid, c, id, 0)
}

func (w *writer) memory(e model.Event) error {
	dev, stream := w.device(e)
	if e.Kind == model.KindMemset {
		return w.f.insert("CUPTI_ACTIVITY_KIND_MEMSET", "start, end, deviceId, contextId, streamId, globalPid, value, bytes",
			e.Start-w.base, e.End()-w.base, dev, 1, stream, w.gpid(e.Rank), 0, 0)
	}
	return w.f.insert("CUPTI_ACTIVITY_KIND_MEMCPY", "start, end, deviceId, contextId, streamId, globalPid, bytes, copyKind",
		e.Start-w.base, e.End()-w.base, dev, 1, stream, w.gpid(e.Rank), 0, copyKind(w.tr.Names.Get(e.Name)))
}

// copyKind guesses ENUM_CUDA_MEMCPY_OPER from a copy's name; DtoD otherwise.
func copyKind(name string) int {
	for k, tok := range map[int]string{1: "HtoD", 2: "DtoH", 10: "PtoP"} {
		if strings.Contains(name, tok) {
			return k
		}
	}
	return 8
}

// shortName is the base name of a demangled kernel name.
func shortName(name string) string {
	name = strings.TrimPrefix(name, "void ")
	name, _, _ = strings.Cut(name, "(")
	name, _, _ = strings.Cut(name, "<")
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return name
}

func (w *writer) nvtx(start int64, end *int64, typ int, gtid, domain int64, text, json string) error {
	var e, j any
	if end != nil {
		e = *end - w.base
	}
	if json != "" {
		j = json
	}
	return w.f.insert("NVTX_EVENTS", "start, end, eventType, text, globalTid, endGlobalTid, domainId, jsonText",
		start-w.base, e, typ, text, gtid, gtid, domain, j)
}
