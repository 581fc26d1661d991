package kineto

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// linkState holds the rows that the passes after reading join together.
type linkState struct {
	runtime []int32         // rows of runtime calls with a correlation id
	annExt  map[int64]int32 // External id -> row of a CPU annotation
	gpuAnn  []extRow        // GPU annotations and their External id
	cpu     []commRange     // record_param_comms ops and nccl:* annotations
	maxEnd  []int64         // after sortCPU: the latest end of cpu[:i+1] on cpu[i]'s thread
	kernels []commKernel    // communication kernels
	cpuExt  map[int64]int   // External id -> index in cpu
}

type extRow struct {
	ext int64
	row int32
}

// commRange is a CPU op or annotation that describes a collective.
type commRange struct {
	stream     int32
	start, end int64
	info       commInfo
}

// commKernel is a communication kernel and what its own args say.
type commKernel struct {
	row       int32
	ext, corr int64
	info      commInfo
	own       bool // info.op came from the kernel's own args
}

func (l *linkState) annotation(ext int64, row int32) {
	if ext < 0 {
		return
	}
	if l.annExt == nil {
		l.annExt = map[int64]int32{}
	}
	l.annExt[ext] = row
}

// commArgsOf reads the collective args of the current event, decoded with
// the rest of it.
func commArgsOf(f *fileReader, _ []byte) commInfo {
	return f.ev.Args.commFields.info(f.rankLists, f.memo)
}

func (l *linkState) commCPU(f *fileReader, raw []byte, row int32, base commInfo) {
	info := commArgsOf(f, raw)
	info.fill(&base)
	ev := &f.tr.Events
	if l.cpuExt == nil {
		l.cpuExt = map[int64]int{}
	}
	if ext := f.ev.Args.ExtID; ext >= 0 {
		if _, dup := l.cpuExt[ext]; !dup {
			l.cpuExt[ext] = len(l.cpu)
		}
	}
	l.cpu = append(l.cpu, commRange{ev.Stream[row], ev.Start[row], ev.Start[row] + ev.Dur[row], info})
}

func (l *linkState) commKernel(f *fileReader, raw []byte, row int32) {
	info := commArgsOf(f, raw)
	own := info.op != model.OpNone
	l.kernels = append(l.kernels, commKernel{row, f.ev.Args.ExtID, f.ev.Args.Corr, info, own})
}

// sortCPU orders the comm ranges by thread, then start, for enclosure
// lookups, and notes the latest end so far on each thread (maxEnd).
func (l *linkState) sortCPU() {
	if !slices.IsSortedFunc(l.cpu, byThreadStart) {
		l.sortCPUCopy()
	}
	l.spans()
}

// spans notes, for each range of the sorted table, the latest end of the
// ranges up to it on its thread (maxEnd).
func (l *linkState) spans() {
	l.maxEnd = make([]int64, len(l.cpu))
	for i, c := range l.cpu {
		l.maxEnd[i] = c.end
		if i > 0 && l.cpu[i-1].stream == c.stream {
			l.maxEnd[i] = max(l.maxEnd[i], l.maxEnd[i-1])
		}
	}
}

// byThreadStart orders comm ranges by thread, then start.
func byThreadStart(a, b commRange) int {
	return cmp.Or(cmp.Compare(a.stream, b.stream), cmp.Compare(a.start, b.start))
}

// sortCPUCopy is sortCPU's sort of ranges out of order (a stable one, so
// that ranges of one start keep their file order), into a new table: the
// one in order, as a file's ranges mostly are, is kept as it is (a copy
// a file, 130 KB for a rank of the 64-rank job, was a tenth of a cold
// run's page faults).
func (l *linkState) sortCPUCopy() {
	order := make([]int, len(l.cpu))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return byThreadStart(l.cpu[a], l.cpu[b]) })
	pos := make([]int, len(order))
	sorted := make([]commRange, len(order))
	for to, from := range order {
		sorted[to], pos[from] = l.cpu[from], to
	}
	for ext, i := range l.cpuExt {
		l.cpuExt[ext] = pos[i]
	}
	l.cpu = sorted
}

// enclosing fills info from the comm ranges on thread s that contain time
// t, innermost first: of the 64 that start last at or before t, those
// that end at or after it. It stops where no range before can contain t.
func (l *linkState) enclosing(s int32, t int64, info *commInfo) {
	lo, hi := 0, len(l.cpu) // the first range after (s, t)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c := &l.cpu[m]; c.stream < s || c.stream == s && c.start <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for j, n := lo-1, 0; j >= 0 && l.cpu[j].stream == s && n < 64 && l.maxEnd[j] >= t; j, n = j-1, n+1 {
		if l.cpu[j].end >= t {
			info.fill(&l.cpu[j].info)
		}
	}
}
