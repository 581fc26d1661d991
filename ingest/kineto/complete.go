package kineto

import (
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// maxEventDur is the longest event kept: a day. Longer ones are corrupt.
const maxEventDur = int64(24 * 3600 * 1e9)

// complete handles an "X" event.
func (f *fileReader) complete(raw []byte, off int64) {
	kind, ok := kindOf(f.ev.Cat)
	if !ok && ownCategory(f.ev.Cat) {
		return
	}
	if !ok {
		f.skip(categoryReason(f.ev.Cat, "X"), -1)
		return
	}
	start, dur, ok := f.times(off)
	if !ok {
		return
	}
	name, comm := f.nameOf(kind == model.KindCompute)
	if comm {
		kind = model.KindComm
	}
	e := model.NewEvent(-1, kind, name, start, dur)
	e.Stream = f.stream(kind)
	if kind == model.KindRuntime || kind.OnGPU() {
		e.Corr = f.ev.Args.Corr
	}
	f.grow()
	row := int32(f.tr.AddEvent(e))
	f.count(kind)
	f.link(raw, row, kind)
}

// grow makes room in the event columns when they are full: past 1 Ki
// events, for as many as the file's density so far projects (the JSON text
// read against its expected length; at most twice what they hold, so a file
// denser at its start than at its end wastes no more than doubling would),
// rather than the quarter more append adds to a large slice: a few copies of
// the columns instead of one every 25 %. Below that, or when the projection
// is not larger, append grows them.
func (f *fileReader) grow() {
	ev := &f.tr.Events
	n := ev.Len()
	if n < cap(ev.Start) || n < 1<<10 || f.text == nil || f.textSize <= 0 {
		return
	}
	at := f.text.offset()
	if at <= 0 {
		return
	}
	want := min(int(float64(n)*1.05*float64(f.textSize)/float64(at)), 2*n)
	if want > n+n/4 {
		ev.Grow(want - n)
	}
}

// nameOf interns the event's name and, when asked, tells whether it names
// an NCCL kernel: once per distinct name when the decoder's cache knows it.
func (f *fileReader) nameOf(kernel bool) (int32, bool) {
	e := f.ev.nameEnt
	if e == nil {
		return f.tr.Names.Intern(f.ev.Name), kernel && isCommKernel(f.ev.Name)
	}
	if e.name == 0 {
		e.name = f.tr.Names.Intern(e.s) + 1
	}
	if kernel && e.comm == 0 {
		e.comm = 1
		if isCommKernel(e.s) {
			e.comm = 2
		}
	}
	return e.name - 1, kernel && e.comm == 2
}

// times parses ts and dur, recording why an event is dropped.
func (f *fileReader) times(off int64) (start, dur int64, ok bool) {
	if !f.ev.Ts.set || !f.ev.Dur.set {
		f.skip("complete event without ts or dur", off)
		return 0, 0, false
	}
	ts, tsSub, err1 := f.ev.Ts.micros()
	d, dSub, err2 := f.ev.Dur.micros()
	switch {
	case err1 != nil || err2 != nil:
		f.skipDetail("unparsable ts or dur", string(f.ev.Ts.b)+", "+string(f.ev.Dur.b), off)
		return 0, 0, false
	case d < 0:
		f.skipDetail("negative duration", string(f.ev.Dur.b)+" µs", off)
		return 0, 0, false
	case d > maxEventDur:
		f.skipDetail("duration over a day", string(f.ev.Dur.b)+" µs", off)
		return 0, 0, false
	}
	if tsSub > 0 || dSub > 0 {
		f.info.inexact = true
	}
	start, dur = span(ts, tsSub, d, dSub)
	return start, dur, true
}

// stream returns the index of the event's GPU stream or CPU thread.
func (f *fileReader) stream(kind model.Kind) int32 {
	a := &f.ev.Args
	k := streamKey{id: f.ev.Tid.N, dev: -1}
	if kind.OnGPU() {
		k = streamKey{gpu: true, id: a.Stream, dev: a.Device}
		if k.id < 0 {
			k.id = f.ev.Tid.N
		}
		if k.dev < 0 {
			k.dev = f.ev.Pid.N
		}
	}
	last := &f.last[b2i(k.gpu)]
	if last.ok && last.k == k {
		return last.i
	}
	i, ok := f.streams[k]
	if ok {
		*last = lastStream{k, i, true}
		return i
	}
	i = int32(len(f.tr.Streams))
	*last = lastStream{k, i, true}
	f.streams[k] = i
	f.tr.Streams = append(f.tr.Streams, model.Stream{GPU: k.gpu, ID: k.id, Device: int32(k.dev), Name: f.threadName(k)})
	return i
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (f *fileReader) threadName(k streamKey) string {
	if k.gpu {
		return "stream " + strconv.FormatInt(k.id, 10)
	}
	return "thread " + strconv.FormatInt(k.id, 10)
}

// count tallies the device and process that events run on.
func (f *fileReader) count(kind model.Kind) {
	if kind.OnGPU() {
		d := f.ev.Args.Device
		if d < 0 {
			d = f.ev.Pid.N
		}
		f.devices.add(d)
	} else if !f.ev.Pid.IsStr {
		f.pids.add(f.ev.Pid.N)
	}
}

// link records what later passes need: steps, runtime calls, collectives.
func (f *fileReader) link(raw []byte, row int32, kind model.Kind) {
	name := f.ev.Name
	switch kind {
	case model.KindAnnotation:
		if n, ok := f.stepNumber(name); ok {
			f.steps = append(f.steps, step{f.tr.Events.Start[row], f.tr.Events.Start[row] + f.tr.Events.Dur[row], n})
		}
		f.links.annotation(f.ev.Args.ExtID, row)
		if strings.HasPrefix(name, "nccl:") {
			f.links.commCPU(f, raw, row, f.memo.annotationInfo(name))
		}
	case model.KindCPUOp:
		if name == "record_param_comms" {
			f.links.commCPU(f, raw, row, newCommInfo())
		}
	case model.KindRuntime:
		if f.ev.Args.Corr >= 0 {
			f.links.runtime = append(f.links.runtime, row)
		}
	case model.KindGPUAnnotation:
		f.links.gpuAnn = append(f.links.gpuAnn, extRow{f.ev.Args.ExtID, row})
	case model.KindComm:
		f.links.commKernel(f, raw, row)
	}
}
