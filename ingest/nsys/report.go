package nsys

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// builder reads one export into a trace whose Rank columns hold process
// ids until the ranks of every report are known.
type builder struct {
	path       string
	d          *db
	meta       meta
	strs       stringTable
	base       int64 // added to every timestamp: the session start in epoch ns
	tr         *model.Trace
	streams    map[streamKey]int32
	gpuPIDs    map[int32]bool // the processes that ran GPU work
	lastPID    int32          // the process of the last GPU event (in gpuPIDs when it has any)
	nccl       []ncclRange
	inits      []commInit
	colls      []pendColl
	mem        []memRow // device memory rows, until ranks are known
	nvtxRows   int
	skipRows   map[string]int64
	texts      map[string]int32 // NVTX texts read: index in textList (cpu.go)
	textList   []string
	textSeen   *[textSlots]int32 // textIndex's cache: a text's index + 1, by textSlot
	nvtxBound  int               // NVTX_EVENTS's largest rowid (grow)
	badTime    error             // the first row whose times leave the limits (times.go)
	lastThread lastStream        // the thread stream thread returned last
	lastGPU    lastStream        // the GPU stream gpuStream returned last
}

// lastStream is one entry of streams, remembered.
type lastStream struct {
	k  streamKey
	i  int32
	ok bool
}

type streamKey struct {
	pid     int32
	gpu     bool
	dev, id int64
}

// readReport reads one .sqlite export.
func readReport(path string, maxMem int64) (*builder, error) {
	d, err := openDB(path)
	if err != nil {
		return nil, &source.FileError{Path: path, Offset: -1, Err: err}
	}
	d.maxMem = maxMem
	defer d.close()
	if !d.has(kernelTable) {
		return nil, &source.FileError{Path: path, Offset: -1, Err: errNoKernels}
	}
	if !d.has(kernelTable, kernelColumns...) {
		return nil, &source.FileError{Path: path, Offset: -1, Err: fmt.Errorf(
			"%s lacks one of the columns %v, present in every export of nsys 2024.1 to 2026.1 (schema 3.x): re-export with a newer nsys", kernelTable, kernelColumns)}
	}
	b := &builder{path: path, d: d, tr: &model.Trace{}, streams: map[streamKey]int32{}, gpuPIDs: map[int32]bool{}, skipRows: map[string]int64{}, texts: map[string]int32{}}
	if err := b.read(); err != nil {
		return nil, &source.FileError{Path: path, Offset: -1, Err: err}
	}
	b.d = nil
	return b, nil
}

// kernelColumns are the kernel columns every supported schema has.
var kernelColumns = []string{"start", "end", "deviceId", "streamId", "correlationId", "globalPid", "shortName"}

var errNoKernels = errors.New("no " + kernelTable + " table: the report holds no CUDA kernels " +
	"(profile with -t cuda, or this is not an Nsight Systems export)")

func (b *builder) read() error {
	var err error
	if b.meta, err = readMeta(b.d); err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	if b.strs, err = readStrings(b.d); err != nil {
		return fmt.Errorf("StringIds: %w", err)
	}
	if err := checkSession(b.meta.sessionNs); err != nil {
		return err
	}
	if !b.meta.normalized {
		b.base = b.meta.sessionNs
	}
	b.nvtxBound = b.grow()
	steps := []struct {
		what string
		f    func() error
	}{{kernelTable, b.readKernels}, {"memcpy", b.readMemcpy}, {"memset", b.readMemset}, {"runtime", b.readRuntime}, {"NVTX_EVENTS", b.readNVTX}, {memTable, b.readMemory}}
	for _, s := range steps {
		if err := s.f(); err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
		if b.badTime != nil {
			return fmt.Errorf("%s: %w", s.what, b.badTime)
		}
	}
	b.makeColls(b.link())
	return nil
}

func (b *builder) gpuStream(pid int32, dev, id int64) int32 {
	k := streamKey{pid, true, dev, id}
	if b.lastGPU.ok && b.lastGPU.k == k {
		return b.lastGPU.i
	}
	if i, ok := b.streams[k]; ok {
		b.lastGPU = lastStream{k, i, true}
		return i
	}
	b.tr.Streams = append(b.tr.Streams, model.Stream{Rank: pid, GPU: true, ID: id, Device: int32(dev), Name: fmt.Sprintf("stream %d", id)})
	b.streams[k] = int32(len(b.tr.Streams) - 1)
	return b.streams[k]
}

func (b *builder) thread(pid int32, tid int64) int32 {
	k := streamKey{pid: pid, id: tid}
	if b.lastThread.ok && b.lastThread.k == k { // rows of one thread mostly follow each other
		return b.lastThread.i
	}
	if i, ok := b.streams[k]; ok {
		b.lastThread = lastStream{k, i, true}
		return i
	}
	b.tr.Streams = append(b.tr.Streams, model.Stream{Rank: pid, ID: tid, Device: -1, Name: fmt.Sprintf("thread %d", tid)})
	b.streams[k] = int32(len(b.tr.Streams) - 1)
	return b.streams[k]
}

// pids lists the processes that ran GPU work, ascending.
func (b *builder) pids() []int32 {
	var out []int32
	for p := range b.gpuPIDs {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// pidsByDevice lists the GPU processes by the device they ran on most,
// then by process id.
func (b *builder) pidsByDevice() []int32 {
	dev := b.devices()
	ps := b.pids()
	slices.SortStableFunc(ps, func(x, y int32) int { return cmp.Compare(dev[x], dev[y]) })
	return ps
}

// size returns the file size, 0 when unknown.
func size(path string) int64 {
	if fi, err := os.Stat(path); err == nil {
		return fi.Size()
	}
	return 0
}
