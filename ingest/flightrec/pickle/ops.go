package pickle

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// Opcodes this package accepts.
const (
	opMark          = '('
	opStop          = '.'
	opPop           = '0'
	opPopMark       = '1'
	opNone          = 'N'
	opBinInt        = 'J'
	opBinInt1       = 'K'
	opBinInt2       = 'M'
	opBinFloat      = 'G'
	opBinUnicode    = 'X'
	opBinBytes      = 'B'
	opShortBinBytes = 'C'
	opAppend        = 'a'
	opAppends       = 'e'
	opEmptyDict     = '}'
	opDict          = 'd'
	opEmptyList     = ']'
	opList          = 'l'
	opEmptyTuple    = ')'
	opTuple         = 't'
	opBinGet        = 'h'
	opLongBinGet    = 'j'
	opBinPut        = 'q'
	opLongBinPut    = 'r'
	opSetItem       = 's'
	opSetItems      = 'u'
	opProto         = 0x80
	opTuple1        = 0x85
	opTuple2        = 0x86
	opTuple3        = 0x87
	opNewTrue       = 0x88
	opNewFalse      = 0x89
	opLong1         = 0x8a
	opShortBinUni   = 0x8c
	opBinUnicode8   = 0x8d
	opBinBytes8     = 0x8e
	opEmptySet      = 0x8f
	opMemoize       = 0x94
	opFrame         = 0x95
)

// forbidden names the opcodes that import, call or build objects.
var forbidden = map[byte]string{
	'c': "GLOBAL", 0x93: "STACK_GLOBAL", 'R': "REDUCE", 'b': "BUILD", 'i': "INST",
	'o': "OBJ", 0x81: "NEWOBJ", 0x92: "NEWOBJ_EX", 'P': "PERSID", 'Q': "BINPERSID",
	0x82: "EXT1", 0x83: "EXT2", 0x84: "EXT4", 0x97: "NEXT_BUFFER", 0x98: "READONLY_BUFFER",
}

// exec runs one opcode; it is a dispatch table, hence its length.
func (d *decoder) exec(op byte) error {
	switch op {
	case opProto:
		return d.proto()
	case opFrame:
		_, err := d.bytes(8)
		return err
	case opMark:
		return d.pushMark()
	case opPop:
		_, err := d.pop()
		return err
	case opPopMark:
		_, err := d.popMark()
		return err
	case opNone:
		d.push(nil)
	case opNewTrue:
		d.push(true)
	case opNewFalse:
		d.push(false)
	case opBinInt, opBinInt1, opBinInt2, opLong1:
		return d.integer(op)
	case opBinFloat:
		return d.float()
	case opBinUnicode, opShortBinUni, opBinUnicode8:
		return d.unicode(op)
	case opBinBytes, opShortBinBytes, opBinBytes8:
		return d.rawBytes(op)
	case opEmptyDict:
		d.push(map[string]any{})
	case opEmptyList:
		d.push(&list{})
	case opEmptyTuple:
		d.push(Tuple{})
	case opDict, opList, opTuple, opTuple1, opTuple2, opTuple3:
		return d.container(op)
	case opAppend, opAppends:
		return d.appendOp(op)
	case opSetItem, opSetItems:
		return d.setItems(op)
	case opBinGet, opLongBinGet:
		return d.get(op)
	case opBinPut, opLongBinPut, opMemoize:
		return d.put(op)
	default:
		return unknown(op)
	}
	return nil
}

func unknown(op byte) error {
	if name, ok := forbidden[op]; ok {
		return fmt.Errorf("%w %s (0x%02x): the dump asks to run code, refusing", ErrForbidden, name, op)
	}
	return fmt.Errorf("unsupported opcode 0x%02x", op)
}

func (d *decoder) proto() error {
	v, err := d.byte()
	if err == nil && (v < 2 || v > 5) {
		err = fmt.Errorf("unsupported protocol %d", v)
	}
	return err
}

func (d *decoder) uint(n int) (uint64, error) {
	b, err := d.bytes(int64(n))
	if err != nil {
		return 0, err
	}
	var x [8]byte
	copy(x[:], b)
	return binary.LittleEndian.Uint64(x[:]), nil
}

func (d *decoder) integer(op byte) error {
	var v int64
	switch op {
	case opBinInt:
		u, err := d.uint(4)
		if err != nil {
			return err
		}
		v = int64(int32(uint32(u)))
	case opBinInt1, opBinInt2:
		u, err := d.uint(map[byte]int{opBinInt1: 1, opBinInt2: 2}[op])
		if err != nil {
			return err
		}
		v = int64(u)
	case opLong1:
		return d.long1()
	}
	d.push(v)
	return nil
}

// long1 decodes a little-endian two's complement integer of up to 8 bytes.
func (d *decoder) long1() error {
	n, err := d.byte()
	if err != nil {
		return err
	}
	if n > 8 {
		return fmt.Errorf("integer of %d bytes does not fit 64 bits", n)
	}
	b, err := d.bytes(int64(n))
	if err != nil {
		return err
	}
	var u uint64
	for i := len(b) - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	if n > 0 && n < 8 && b[n-1]&0x80 != 0 {
		u |= ^uint64(0) << (8 * uint(n))
	}
	d.push(int64(u))
	return nil
}

func (d *decoder) float() error {
	b, err := d.bytes(8)
	if err != nil {
		return err
	}
	d.push(math.Float64frombits(binary.BigEndian.Uint64(b)))
	return nil
}

func (d *decoder) length(op byte) (int64, error) {
	switch op {
	case opShortBinUni, opShortBinBytes:
		b, err := d.byte()
		return int64(b), err
	case opBinUnicode8, opBinBytes8:
		u, err := d.uint(8)
		if u > math.MaxInt64 {
			return 0, fmt.Errorf("length %d out of bounds", u)
		}
		return int64(u), err
	}
	u, err := d.uint(4)
	return int64(u), err
}

func (d *decoder) unicode(op byte) error {
	n, err := d.length(op)
	if err != nil {
		return err
	}
	b, err := d.bytes(n)
	if err != nil {
		return err
	}
	if !utf8.Valid(b) {
		return fmt.Errorf("string is not valid UTF-8")
	}
	d.push(string(b))
	return nil
}

func (d *decoder) rawBytes(op byte) error {
	n, err := d.length(op)
	if err != nil {
		return err
	}
	b, err := d.bytes(n)
	if err == nil {
		d.push(b)
	}
	return err
}

func (d *decoder) container(op byte) error {
	var items []any
	var err error
	switch op {
	case opTuple1, opTuple2, opTuple3:
		items, err = d.popN(int(op-opTuple1) + 1)
	default:
		items, err = d.popMark()
	}
	if err != nil {
		return err
	}
	switch op {
	case opList:
		d.push(&list{items: items})
	case opDict:
		m := map[string]any{}
		if err := setPairs(m, items); err != nil {
			return err
		}
		d.push(m)
	default:
		d.push(Tuple(items))
	}
	return nil
}

func (d *decoder) popN(n int) ([]any, error) {
	items := make([]any, n)
	for i := n - 1; i >= 0; i-- {
		v, err := d.pop()
		if err != nil {
			return nil, err
		}
		items[i] = v
	}
	return items, nil
}

func (d *decoder) appendOp(op byte) error {
	items, v, err := d.operands(1, op != opAppend)
	if err != nil {
		return err
	}
	l, ok := v.(*list)
	if !ok {
		return fmt.Errorf("APPEND to a %s", typeName(v))
	}
	l.items = append(l.items, items...)
	return nil
}

func (d *decoder) setItems(op byte) error {
	items, v, err := d.operands(2, op != opSetItem)
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("SETITEM on a %s", typeName(v))
	}
	return setPairs(m, items)
}

// operands pops an op's operands — n items, or with toMark all of them down
// to the mark — and returns them with the container left on top beneath
// them.
func (d *decoder) operands(n int, toMark bool) ([]any, any, error) {
	var items []any
	var err error
	if toMark {
		items, err = d.popMark()
	} else {
		items, err = d.popN(n)
	}
	if err != nil {
		return nil, nil, err
	}
	v, err := d.top()
	return items, v, err
}

func setPairs(m map[string]any, items []any) error {
	if len(items)%2 != 0 {
		return fmt.Errorf("odd number of dict items (%d)", len(items))
	}
	for i := 0; i < len(items); i += 2 {
		k, err := key(items[i])
		if err != nil {
			return err
		}
		m[k] = items[i+1]
	}
	return nil
}

func key(v any) (string, error) {
	switch k := v.(type) {
	case string:
		return k, nil
	case int64:
		return strconv.FormatInt(k, 10), nil
	}
	return "", fmt.Errorf("dict key of type %s", typeName(v))
}

func (d *decoder) get(op byte) error {
	n := 1
	if op == opLongBinGet {
		n = 4
	}
	i, err := d.uint(n)
	if err != nil {
		return err
	}
	v, ok := d.memo[uint32(i)]
	if !ok {
		return fmt.Errorf("memo key %d not set", i)
	}
	d.push(v)
	return nil
}

func (d *decoder) put(op byte) error {
	v, err := d.top()
	if err != nil {
		return err
	}
	i := uint64(len(d.memo))
	switch op {
	case opBinPut:
		i, err = d.uint(1)
	case opLongBinPut:
		i, err = d.uint(4)
	}
	if err != nil {
		return err
	}
	d.memo[uint32(i)] = v
	return nil
}
