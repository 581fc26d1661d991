package kineto

import (
	"cmp"
	"encoding/binary"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// enclosingSlow is enclosing as it was: a binary search over the ranges
// themselves and every one of the 64 before, no early stop.
func enclosingSlow(l *linkState, s int32, t int64, info *commInfo) {
	i, _ := slices.BinarySearchFunc(l.cpu, commRange{stream: s, start: t + 1}, func(a, b commRange) int {
		return cmp.Or(cmp.Compare(a.stream, b.stream), cmp.Compare(a.start, b.start))
	})
	for j, n := i-1, 0; j >= 0 && l.cpu[j].stream == s && n < 64; j, n = j-1, n+1 {
		if l.cpu[j].end >= t {
			info.fill(&l.cpu[j].info)
		}
	}
}

// rangesFrom makes comm ranges from bytes: per range a thread (0..3), a
// start and a length (small, so that they nest and overlap), and an op, a
// sequence number and a group name that tell which ranges filled an info.
func rangesFrom(b []byte) *linkState {
	var l linkState
	for ; len(b) >= 4; b = b[4:] {
		start := int64(b[1]) * 4
		info := newCommInfo()
		info.op = model.Op(b[3]%5 + 1)
		info.seq = int64(len(l.cpu))
		if b[3]&8 != 0 {
			info.pgName = string(rune('a' + b[3]%7))
		}
		l.cpu = append(l.cpu, commRange{stream: int32(b[0] % 4), start: start, end: start + int64(b[2]), info: info})
	}
	l.sortCPU()
	return &l
}

func checkEnclosing(t *testing.T, b []byte) {
	l := rangesFrom(b)
	for s := int32(-1); s <= 4; s++ {
		for at := int64(-2); at <= 1100; at += 3 {
			fast, slow := newCommInfo(), newCommInfo()
			l.enclosing(s, at, &fast)
			enclosingSlow(l, s, at, &slow)
			if !reflect.DeepEqual(fast, slow) {
				t.Fatalf("thread %d at %d: %+v, want %+v (ranges %+v)", s, at, fast, slow, l.cpu)
			}
		}
	}
}

// encSeeds are range sets: nested, one long range over many short ones
// (the early stop must not pass it), more than 64 on a thread, threads
// interleaved.
var encSeeds = func() [][]byte {
	var long, many, mixed []byte
	long = append(long, 0, 0, 255, 1)
	for i := range 70 {
		long = append(long, 0, byte(2+i), 1, byte(i))
		many = append(many, 1, byte(i*3), byte(200-i), byte(i))
		mixed = append(mixed, byte(i), byte(i*7), byte(i*11), byte(i*13))
	}
	return [][]byte{{0, 10, 50, 1, 0, 12, 5, 2, 0, 20, 40, 9}, long, many, mixed, nil}
}()

func TestEnclosing(t *testing.T) {
	for _, b := range encSeeds {
		checkEnclosing(t, b)
	}
}

// FuzzEnclosing: the search with its early stop fills what the search
// over every range did.
func FuzzEnclosing(f *testing.F) {
	for _, b := range encSeeds {
		f.Add(b)
	}
	f.Fuzz(checkEnclosing)
}

// checkTally: a tally counts what a map counts.
func checkTally(t *testing.T, b []byte) {
	tl, want := tally{m: map[int64]int{}}, map[int64]int{}
	for ; len(b) >= 2; b = b[2:] {
		k := int64(int16(binary.LittleEndian.Uint16(b))) % 5
		tl.add(k)
		want[k]++
	}
	if got := tl.counts(); !maps.Equal(got, want) {
		t.Fatalf("%v, want %v", got, want)
	}
}

func TestTally(t *testing.T) {
	for _, b := range [][]byte{nil, {1, 0}, {1, 0, 1, 0, 2, 0, 1, 0, 3, 0, 3, 0}} {
		checkTally(t, b)
	}
}

func FuzzTally(f *testing.F) {
	f.Add([]byte{1, 0, 1, 0, 2, 0, 1, 0})
	f.Fuzz(checkTally)
}

// checkMemo: what a memo gives for a text, the first time and again, is
// what the functions it remembers give.
func checkMemo(t *testing.T, texts []string) {
	m := newMemo()
	for range 2 {
		for _, s := range texts {
			b := []byte(s)
			if got := m.str(b); got != s {
				t.Fatalf("str %q: %q", s, got)
			}
			if got, want := m.collectiveOp(b), collectiveOp(s); got != want {
				t.Fatalf("collectiveOp %q: %v, want %v", s, got, want)
			}
			if got, want := m.kernelOp(s), kernelOp(s); got != want {
				t.Fatalf("kernelOp %q: %v, want %v", s, got, want)
			}
			if got, want := m.dtypeSize(s), dtypeSize(s); got != want {
				t.Fatalf("dtypeSize %q: %v, want %v", s, got, want)
			}
			if got, want := m.annotationInfo(s), annotationInfo(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("annotationInfo %q: %+v, want %+v", s, got, want)
			}
			if got, want := string(trimQuotes(b)), strings.Trim(s, `"`); got != want {
				t.Fatalf("trimQuotes %q: %q, want %q", s, got, want)
			}
		}
	}
}

var memoSeeds = []string{"", "allreduce", "_allgather_base", "nccl:send 0->16", "nccl:recv 3<-2", "nccl:all_reduce",
	"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "BFloat16", `"Float"`, `""x""`,
	"c10::BFloat16", "send", "Broadcast", "\"", "nccl:", "0", "default_pg"}

func TestMemo(t *testing.T) { checkMemo(t, memoSeeds) }

func FuzzMemo(f *testing.F) {
	for _, s := range memoSeeds {
		f.Add(s, "allreduce")
	}
	f.Fuzz(func(t *testing.T, a, b string) { checkMemo(t, []string{a, b, a}) })
}

// TestSortCPUInOrderKept: ranges already in thread-then-start order are
// kept as they are (no copy), with the External id index and the latest
// ends the sorting copy gives them.
func TestSortCPUInOrderKept(t *testing.T) {
	for _, seed := range [][]byte{[]byte("\x00\x01\x05\x01\x00\x02\x03\x0a\x01\x01\x09\x02\x01\x01\x04\x0b\x03\x07\x07\x03"), make([]byte, 40)} {
		l := rangesFrom(seed) // sorted
		kept := &linkState{cpu: slices.Clone(l.cpu), cpuExt: map[int64]int{}}
		copied := &linkState{cpu: slices.Clone(l.cpu), cpuExt: map[int64]int{}}
		for i := range l.cpu {
			kept.cpuExt[int64(100+i)], copied.cpuExt[int64(100+i)] = i, i
		}
		first := &kept.cpu[0]
		kept.sortCPU()
		copied.sortCPUCopy()
		copied.spans()
		if &kept.cpu[0] != first {
			t.Error("ranges in order were copied")
		}
		if !reflect.DeepEqual(kept.cpu, copied.cpu) || !maps.Equal(kept.cpuExt, copied.cpuExt) || !slices.Equal(kept.maxEnd, copied.maxEnd) {
			t.Errorf("kept %+v %v %v\ncopied %+v %v %v", kept.cpu, kept.cpuExt, kept.maxEnd, copied.cpu, copied.cpuExt, copied.maxEnd)
		}
	}
}
