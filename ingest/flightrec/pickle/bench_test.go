package pickle

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// enc writes the opcodes a Flight Recorder dump uses (protocol 2).
type enc struct{ b bytes.Buffer }

func (e *enc) str(s string) {
	e.b.WriteByte(opBinUnicode)
	binary.Write(&e.b, binary.LittleEndian, uint32(len(s)))
	e.b.WriteString(s)
}

func (e *enc) int(n int32) { e.b.WriteByte(opBinInt); binary.Write(&e.b, binary.LittleEndian, n) }

func (e *enc) float(f float64) {
	e.b.WriteByte(opBinFloat)
	binary.Write(&e.b, binary.BigEndian, math.Float64bits(f))
}

// entry writes one FR entry dict.
func (e *enc) entry(i int32) {
	e.b.WriteByte(opEmptyDict)
	e.b.WriteByte(opMark)
	e.str("record_id")
	e.int(i)
	e.str("profiling_name")
	e.str("nccl:all_reduce")
	e.str("process_group")
	e.str("35")
	e.str("TENSOR_MODEL_PARALLEL_GROUP")
	e.b.WriteByte(opTuple2)
	e.str("collective_seq_id")
	e.int(i)
	e.str("duration_ms")
	e.float(1.25)
	e.str("input_sizes")
	e.b.WriteByte(opEmptyList)
	e.b.WriteByte(opEmptyList)
	e.b.WriteByte(opMark)
	e.int(2048)
	e.int(5120)
	e.b.WriteByte(opAppends)
	e.b.WriteByte(opAppend)
	e.str("state")
	e.str("completed")
	e.b.WriteByte(opSetItems)
}

// dump is a dict {"version": "2.9", "entries": [n entries]}.
func dump(n int) []byte {
	var e enc
	e.b.Write([]byte{opProto, 2, opEmptyDict, opMark})
	e.str("version")
	e.str("2.9")
	e.str("entries")
	e.b.WriteByte(opEmptyList)
	e.b.WriteByte(opMark)
	for i := range int32(n) {
		e.entry(i)
	}
	e.b.Write([]byte{opAppends, opSetItems, opStop})
	return e.b.Bytes()
}

func TestGeneratedDumpDecodes(t *testing.T) {
	v, err := DecodeBytes(dump(3))
	if err != nil {
		t.Fatal(err)
	}
	entries := v.(map[string]any)["entries"].([]any)
	if len(entries) != 3 || fmt.Sprint(entries[2].(map[string]any)["input_sizes"]) != "[[2048 5120]]" {
		t.Fatalf("decoded %v", entries)
	}
}

// BenchmarkDecodeDump decodes a 20 000-entry dump (FR's default buffer
// holds 2 000 entries per rank).
func BenchmarkDecodeDump(b *testing.B) {
	in := dump(20_000)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := DecodeBytes(in); err != nil {
			b.Fatal(err)
		}
	}
}
