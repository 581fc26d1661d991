package kineto

import (
	"fmt"
	"regexp"

	"github.com/tpptrace/tpptrace/model"
)

// fileReader turns the elements of one trace file into a per-file
// model.Trace. Rank numbers are filled in by finish, once the whole file
// (distributedInfo may come after traceEvents) has been read.
type fileReader struct {
	path      string
	dec       decoder   // nil: the one-pass decoder (evd); tests set an oracle
	evd       evDecoder // decodes each traceEvents element
	stepRe    *regexp.Regexp
	tr        *model.Trace
	info      fileMeta
	ev        rawEvent
	streams   map[streamKey]int32
	last      [2]lastStream       // the last stream looked up, CPU and GPU
	text      *splitter           // the file's JSON text read so far (nil: unknown)
	textSize  int64               // the JSON text's expected length, a hint (0: unknown)
	names     map[[2]int64]string // thread_name metadata by (pid, tid)
	skips     map[string]int      // skip reason -> index in tr.Skipped
	devices   tally               // GPU events per device
	pids      tally               // CPU events per process id
	steps     []step
	lists     map[string][]int32 // process group -> rank list, when stated
	rankLists rankLists          // parsed rank lists by their text
	ranks     *rankIntern        // sorted rank lists shared by the files of a read
	links     linkState
	memo      *memo // what the collective passes derive from repeated texts
	nEvents   int   // traceEvents elements so far
}

// lastStream is a stream index and its key.
type lastStream struct {
	k  streamKey
	i  int32
	ok bool
}

type streamKey struct {
	gpu bool
	id  int64
	dev int64
}

// step is one iteration window on the CPU.
type step struct {
	start, end int64
	n          int32
}

// newFileReader reads one file on its own; readAll gives the files of a
// read one rankIntern (fileReader.ranks). dec is nil but in tests.
func newFileReader(path string, dec decoder, stepRe *regexp.Regexp) *fileReader {
	return &fileReader{path: path, dec: dec, stepRe: stepRe, tr: &model.Trace{}, ranks: newRankIntern(),
		info: newFileMeta(), streams: map[streamKey]int32{}, names: map[[2]int64]string{},
		skips: map[string]int{}, devices: tally{m: map[int64]int{}}, pids: tally{m: map[int64]int{}}, lists: map[string][]int32{}, rankLists: rankLists{}, memo: newMemo()}
}

// skip counts one dropped item under reason; the first occurrence gives
// the offset.
func (f *fileReader) skip(reason string, off int64) { f.skipDetail(reason, "", off) }

// skipDetail is skip with a detail of the first occurrence (a value) that
// does not split the count.
func (f *fileReader) skipDetail(key, detail string, off int64) {
	if i, ok := f.skips[key]; ok {
		f.tr.Skipped[i].Count++
		return
	}
	reason := key
	if detail != "" {
		reason += " (first: " + detail + ")"
	}
	unit := "byte"
	if off < 0 {
		unit = ""
	}
	f.skips[key] = len(f.tr.Skipped)
	f.tr.Skipped = append(f.tr.Skipped, model.Skip{Source: f.path, Offset: off, Unit: unit, Reason: reason, Count: 1})
}

// decode decodes one traceEvents element into f.ev (handler.decode): with
// the one-pass decoder, or with f.dec, the test oracle, which only takes
// whole elements.
func (f *fileReader) decode(b []byte, whole bool) (int, error) {
	f.ev.reset()
	if f.dec == nil {
		return f.evd.decode(b, &f.ev, whole)
	}
	if !whole {
		return 0, errShort
	}
	return len(b), f.dec.Unmarshal(b, &f.ev)
}

// event handles one traceEvents element, decoded into f.ev (derr: why not).
func (f *fileReader) event(raw []byte, off int64, derr error) error {
	if f.nEvents++; f.nEvents > maxEvents {
		return &syntaxError{off, fmt.Sprintf("more than %d events in one file: refused (docs/limits.md)", maxEvents)}
	}
	if derr != nil {
		f.skipDetail("undecodable event", firstLine(derr.Error()), off)
		return nil
	}
	f.clipEvent(off)
	switch f.ev.Ph {
	case "X":
		f.complete(raw, off)
	case "M":
		f.metadata()
	case "i", "I":
		f.instant(off)
	default:
		if !ownCategory(f.ev.Cat) {
			f.skip(categoryReason(f.ev.Cat, f.ev.Ph), -1)
		}
	}
	return nil
}

func categoryReason(cat, ph string) string {
	if cat == "" {
		return "events with phase \"" + ph + "\" and no category are not used"
	}
	return "category \"" + cat + "\" is not used"
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	if len(s) > 200 {
		return s[:200]
	}
	return s
}

// metadata keeps thread names.
func (f *fileReader) metadata() {
	if f.ev.Name == "thread_name" && f.ev.Args.Name != "" {
		f.names[[2]int64{f.ev.Pid.N, f.ev.Tid.N}] = f.ev.Args.Name
	}
}

// tally counts events by a key. Events come in runs of one key (a device,
// a process), so the current run's count is held apart and added to the
// map when the key changes: no map update an event.
type tally struct {
	m   map[int64]int
	key int64
	n   int // events of key not yet in m
}

func (t *tally) add(k int64) {
	if t.n > 0 && k == t.key {
		t.n++
		return
	}
	t.flush()
	t.key, t.n = k, 1
}

// counts returns the counts by key.
func (t *tally) counts() map[int64]int {
	t.flush()
	return t.m
}

func (t *tally) flush() {
	if t.n > 0 {
		t.m[t.key] += t.n
		t.n = 0
	}
}
