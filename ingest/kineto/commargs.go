package kineto

import (
	"bytes"
	"strconv"
	"strings"
)

// commArgs are the collective args of a kernel, record_param_comms op or
// nccl:* annotation, decoded only for those events.
type commArgs struct {
	Args struct {
		CollName  flexStr `json:"Collective name"`
		InNelems  flexInt `json:"In msg nelems"`
		OutNelems flexInt `json:"Out msg nelems"`
		GroupSize flexInt `json:"Group size"`
		DType     flexStr `json:"dtype"`
		PGName    flexStr `json:"Process Group Name"`
		PGDesc    flexStr `json:"Process Group Description"`
		PGRanks   flexStr `json:"Process Group Ranks"`
		PGID      flexStr `json:"Process Group ID"`
		Seq       flexInt `json:"Seq"`
		Src       flexInt `json:"Src Rank"`
		Dst       flexInt `json:"Dst Rank"`
		InDims    flexStr `json:"Input Dims"`
		InType    flexStr `json:"Input type"`
	} `json:"args"`
}

// info turns the args into a commInfo.
func (a *commArgs) info() commInfo {
	x, c := &a.Args, newCommInfo()
	c.op = collectiveOp(x.CollName.S)
	c.nelems = x.InNelems.or(x.OutNelems.or(-1))
	c.groupSize, c.seq = x.GroupSize.or(-1), x.Seq.or(-1)
	c.peer = x.Dst.or(x.Src.or(-1))
	c.dtype = strings.Trim(x.DType.S, "\"")
	c.pgName, c.pgDesc = cmpOr(x.PGName.S, x.PGID.S), x.PGDesc.S
	c.ranks = parseRanks(x.PGRanks.S)
	if c.nelems < 0 && x.InDims.S != "" {
		c.nelems, c.dtype = firstTensor(x.InDims.S, x.InType.S)
	}
	return c
}

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
