package kineto

// sizeHint is what the last file a worker read grew to. The files of one
// job are much alike (one rank's trace each), so the next file's event
// columns and link tables start at that size instead of growing to it by
// copies: for the 64-rank job each file's columns were copied two or
// three times on the way (append's doublings to 1 Ki events, then grow's
// projections) and its link tables six to ten times, each copy into new
// pages. A hint only sets capacities: what is read is the same.
type sizeHint struct {
	perByte float64 // events per byte of JSON text (0: none yet)
	events  int     // events of the file
	cpu     int     // comm ranges (linkState.cpu)
	kernels int     // communication kernels
	runtime int     // runtime calls with a correlation id
	annExt  int     // CPU annotations by External id
	cpuExt  int     // comm ranges by External id
}

// hintOf is the sizes file f grew to; called once its traceEvents are read.
func hintOf(f *fileReader) sizeHint {
	l := &f.links
	h := sizeHint{events: f.tr.Events.Len(), cpu: len(l.cpu), kernels: len(l.kernels),
		runtime: len(l.runtime), annExt: len(l.annExt), cpuExt: len(l.cpuExt)}
	if f.textSize > 0 {
		h.perByte = float64(h.events) / float64(f.textSize)
	}
	return h
}

// presize sizes f's event columns for its JSON text at the density of the
// last file (2 % more; at most twice that file's events and 1 Ki more, so a
// file far sparser than the last one reserves no more than doubling would
// have grown to: grow carries on past it), and its link tables as the
// last file's.
func (f *fileReader) presize(h sizeHint) {
	if h.perByte > 0 && f.textSize > 0 {
		want := min(int(float64(f.textSize)*h.perByte*1.02)+64, 2*h.events+1<<10)
		f.tr.Events.Grow(want)
	}
	l := &f.links
	l.cpu = make([]commRange, 0, h.cpu)
	l.kernels = make([]commKernel, 0, h.kernels)
	l.runtime = make([]int32, 0, h.runtime)
	if h.annExt > 0 {
		l.annExt = make(map[int64]int32, h.annExt)
	}
	if h.cpuExt > 0 {
		l.cpuExt = make(map[int64]int, h.cpuExt)
	}
}
