package pickle

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// sharedListBomb is a protocol-2 pickle of levels nested lists, each holding
// fanout memo references to the one below: a few hundred bytes that expand
// to fanout^levels values.
func sharedListBomb(levels, fanout int) []byte {
	var b bytes.Buffer
	b.Write([]byte{0x80, 2, opEmptyList, opMark})
	for i := 0; i < fanout; i++ {
		b.Write([]byte{opBinInt1, byte(i)})
	}
	b.Write([]byte{opAppends, opBinPut, 0, opPop})
	for l := 1; l < levels; l++ {
		b.Write([]byte{opEmptyList, opMark})
		for i := 0; i < fanout; i++ {
			b.Write([]byte{opBinGet, byte(l - 1)})
		}
		b.Write([]byte{opAppends, opBinPut, byte(l), opPop})
	}
	b.Write([]byte{opBinGet, byte(levels - 1), opStop})
	return b.Bytes()
}

// allocated returns the bytes f allocates (an upper bound of its peak heap).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestSharedListBombIsRefused(t *testing.T) {
	bomb := sharedListBomb(40, 16) // 16^40 values in about 1.4 KB
	if len(bomb) > 2048 {
		t.Fatalf("the bomb is %d bytes, want a small file", len(bomb))
	}
	var err error
	n := allocated(func() { _, err = DecodeBytes(bomb) })
	if err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("want an expanded-size error, got %v", err)
	}
	if len(err.Error()) > 300 {
		t.Errorf("the error quotes %d bytes", len(err.Error()))
	}
	if n > 200<<20 {
		t.Errorf("decoding the bomb allocated %d MB, want under 200 MB", n>>20)
	}
}

func TestSharingWithinBudgetIsKept(t *testing.T) {
	v, err := DecodeLimits(bytes.NewReader(sharedListBomb(3, 10)), Limits{MaxExpanded: 1111})
	if err != nil {
		t.Fatalf("1,111 values within a budget of 1,111: %v", err)
	}
	if l := v.([]any); len(l) != 10 || len(l[9].([]any)[9].([]any)) != 10 {
		t.Fatalf("decoded %v", v)
	}
	if _, err := DecodeLimits(bytes.NewReader(sharedListBomb(3, 10)), Limits{MaxExpanded: 1110}); err == nil {
		t.Fatal("1,111 values over a budget of 1,110: accepted")
	}
}
