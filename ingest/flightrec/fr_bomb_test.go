package flightrec

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// frBomb is a Flight Recorder dump pickle whose one process group's ranks
// are levels nested lists, each holding fanout memo references to the one
// below: fanout^levels values in about 30·levels bytes.
func frBomb(levels, fanout int) []byte {
	var b bytes.Buffer
	str := func(s string) {
		b.WriteByte('X')
		binary.Write(&b, binary.LittleEndian, uint32(len(s)))
		b.WriteString(s)
	}
	b.Write([]byte{0x80, 2, '}', '('})
	str("entries")
	b.WriteByte(']')
	str("pg_config")
	b.Write([]byte{'}', '('})
	str("0")
	b.Write([]byte{'}', '('})
	str("ranks")
	b.Write([]byte{']', '('})
	for i := 0; i < fanout; i++ {
		b.Write([]byte{'K', byte(i)})
	}
	b.Write([]byte{'e', 'q', 0, '0'})
	for l := 1; l < levels; l++ {
		b.Write([]byte{']', '('})
		for i := 0; i < fanout; i++ {
			b.Write([]byte{'h', byte(l - 1)})
		}
		b.Write([]byte{'e', 'q', byte(l), '0'})
	}
	b.Write([]byte{'h', byte(levels - 1), 'u', 'u', 'u', '.'})
	return b.Bytes()
}

// readAllocating reads one dump file and returns its path, the bytes the
// read allocated (an upper bound of its peak heap).
func readAllocating(t *testing.T, data []byte) (string, uint64, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "rank_3")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadDump(p)
	runtime.ReadMemStats(&after)
	return p, after.TotalAlloc - before.TotalAlloc, err
}

func TestFlightRecorderBombsFailFastWithShortMessages(t *testing.T) {
	for _, c := range []struct {
		levels int
		want   string
	}{
		{40, "expands to more than"}, // 16^40 values: refused by the pickle budget
		{6, "is not a rank number"},  // 16^6 values: within it, refused by the reader
	} {
		bomb := frBomb(c.levels, 16)
		if len(bomb) > 2048 {
			t.Fatalf("the bomb is %d bytes", len(bomb))
		}
		p, alloc, err := readAllocating(t, bomb)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Fatalf("%d levels: want an error naming %s and saying %q, got %v", c.levels, p, c.want, err)
		}
		if n := len(err.Error()); n > 600 {
			t.Errorf("%d levels: the message quotes %d bytes", c.levels, n)
		}
		if alloc > 200<<20 {
			t.Errorf("%d levels: reading allocated %d MB, want under 200 MB", c.levels, alloc>>20)
		}
	}
}
