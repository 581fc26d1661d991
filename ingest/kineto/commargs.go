package kineto

import (
	"bytes"
	"strconv"
	"strings"
)

// commFields are the collective args of a kernel, record_param_comms op or
// nccl:* annotation. They are part of rawArgs, so an event is decoded once;
// the text fields keep their buffers from event to event and become strings
// only for the events that describe a collective.
type commFields struct {
	CollName  textVal `json:"Collective name"`
	InNelems  flexInt `json:"In msg nelems"`
	OutNelems flexInt `json:"Out msg nelems"`
	GroupSize flexInt `json:"Group size"`
	DType     textVal `json:"dtype"`
	PGName    textVal `json:"Process Group Name"`
	PGDesc    textVal `json:"Process Group Description"`
	PGRanks   textVal `json:"Process Group Ranks"`
	PGID      textVal `json:"Process Group ID"`
	Seq       flexInt `json:"Seq"`
	Src       flexInt `json:"Src Rank"`
	Dst       flexInt `json:"Dst Rank"`
	InDims    textVal `json:"Input Dims"`
	InType    textVal `json:"Input type"`
}

// clear empties x for the next event, keeping the text buffers.
func (x *commFields) clear() {
	x.CollName.b = x.CollName.b[:0] // one per statement: only the length is written
	x.DType.b = x.DType.b[:0]
	x.PGName.b = x.PGName.b[:0]
	x.PGDesc.b = x.PGDesc.b[:0]
	x.PGRanks.b = x.PGRanks.b[:0]
	x.PGID.b = x.PGID.b[:0]
	x.InDims.b = x.InDims.b[:0]
	x.InType.b = x.InType.b[:0]
	x.InNelems, x.OutNelems, x.GroupSize = flexInt{}, flexInt{}, flexInt{}
	x.Seq, x.Src, x.Dst = flexInt{}, flexInt{}, flexInt{}
}

// info turns the args into a commInfo; rank lists are parsed once per
// distinct text (lists).
func (x *commFields) info(lists rankLists, m *memo) commInfo {
	c := newCommInfo()
	c.op = m.collectiveOp(x.CollName.b)
	c.nelems = x.InNelems.or(x.OutNelems.or(-1))
	c.groupSize, c.seq = x.GroupSize.or(-1), x.Seq.or(-1)
	c.peer = x.Dst.or(x.Src.or(-1))
	c.dtype = m.str(trimQuotes(x.DType.b))
	c.pgName, c.pgDesc = cmpOr(m.str(x.PGName.b), m.str(x.PGID.b)), m.str(x.PGDesc.b)
	c.ranks = lists.parse(x.PGRanks.b)
	if c.nelems < 0 && len(x.InDims.b) > 0 {
		c.nelems, c.dtype = firstTensor(x.InDims.String(), x.InType.String())
	}
	return c
}

// rankLists interns parsed process-group rank lists by their text: every
// collective of a group states the same list.
type rankLists map[string][]int32

// parseString is parse of a string.
func (l rankLists) parseString(s string) []int32 {
	if r, ok := l[s]; ok {
		return r
	}
	return l.parse([]byte(s))
}

func (l rankLists) parse(text []byte) []int32 {
	if r, ok := l[string(text)]; ok {
		return r
	}
	r := parseRanks(string(text))
	if len(l) < 4096 { // a file naming more distinct lists is not worth remembering
		l[string(text)] = r
	}
	return r
}

// textVal is any JSON value kept as text, as flexStr, in a buffer reused
// from event to event.
type textVal struct{ b []byte }

func (v *textVal) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '"' && bytes.IndexByte(b, '\\') < 0:
		v.b = append(v.b[:0], b[1:len(b)-1]...)
	case len(b) > 0 && b[0] == '"':
		var s flexStr
		_ = s.UnmarshalJSON(b)
		v.b = append(v.b[:0], s.S...)
	case !bytes.Equal(b, []byte("null")):
		v.b = append(v.b[:0], b...)
	}
	return nil
}

func (v textVal) String() string { return string(v.b) }

// firstTensor reads the element count and type of the first input of an op
// from "Input Dims" ([[394241]]) and "Input type" (["float"]): old traces
// carry no collective args, only these.
func firstTensor(dims, types string) (int64, string) {
	dims = strings.TrimLeft(dims, "[ ")
	dims, _, _ = strings.Cut(dims, "]")
	n := int64(1)
	for _, f := range strings.Split(dims, ",") {
		v, ok := parseInt([]byte(strings.TrimSpace(f)))
		if !ok || v < 0 {
			return -1, ""
		}
		n *= v
	}
	t, _, _ := strings.Cut(strings.TrimLeft(types, "[ "), ",")
	return n, strings.Trim(t, "\"] ")
}

// flexInt is an integer written as a number or a string; Set says it was present.
type flexInt struct {
	N   int64
	Set bool
}

func (v *flexInt) UnmarshalJSON(b []byte) error {
	b = bytes.Trim(b, "\"")
	if n, ok := parseInt(b); ok {
		*v = flexInt{n, true}
	} else if f, err := strconv.ParseFloat(string(b), 64); err == nil && f == float64(int64(f)) {
		*v = flexInt{int64(f), true}
	}
	return nil
}

func (v flexInt) or(d int64) int64 {
	if v.Set {
		return v.N
	}
	return d
}

// flexStr is any JSON value kept as text: a string's contents, or the raw
// text of a number, array or object.
type flexStr struct{ S string }

func (v *flexStr) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		s, err := strconv.Unquote(string(b))
		if err != nil {
			s = string(b[1 : len(b)-1])
		}
		v.S = s
		return nil
	}
	if !bytes.Equal(b, []byte("null")) {
		v.S = string(b)
	}
	return nil
}
