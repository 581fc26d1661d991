package nsys

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"sync"

	"github.com/tpptrace/tpptrace/model"
)

// NVTX event types (ENUM_NSYS_EVENT_TYPE).
const (
	nvtxMark         = 34
	nvtxPushPop      = 59
	nvtxStartEnd     = 60
	nvtxDomainCreate = 75
)

// readRuntime appends one KindRuntime event per CUDA runtime/driver call.
func (b *builder) readRuntime() error {
	const t = "CUPTI_ACTIVITY_KIND_RUNTIME"
	if !b.d.has(t, "start", "end", "globalTid", "correlationId", "nameId") {
		return nil
	}
	names, byID := map[int64]int32{}, make([]int32, len(b.strs))
	var v [5]int64
	return b.d.readTable(t, []string{"start", "end", "globalTid", "correlationId", "nameId"}, func(s row) {
		nulls := s.Int64s(v[:], 1<<5-1)
		name := b.runtimeNameID(names, byID, v[4])
		e := b.cpuEvent(v[0], v[1], v[2], model.KindRuntime, name) // a NULL globalTid reads as 0
		e.Corr = or(v[:], nulls, 3, -1)
		b.tr.Events.Append(e)
	})
}

// runtimeNameID is the event name of StringIds entry sid, worked out once:
// byID holds the names of the entries (name + 1, 0 for not yet), names of
// ids out of the table's range.
func (b *builder) runtimeNameID(names map[int64]int32, byID []int32, sid int64) int32 {
	if sid >= 0 && sid < int64(len(byID)) && byID[sid] > 0 {
		return byID[sid] - 1
	}
	name, ok := names[sid]
	if !ok {
		name = b.tr.Names.Intern(runtimeName(b.strs.get(sid)))
		names[sid] = name
	}
	if sid >= 0 && sid < int64(len(byID)) {
		byID[sid] = name + 1
	}
	return name
}

func (b *builder) cpuEvent(start, end, gtid int64, kind model.Kind, name int32) model.Event {
	pid := pidOf(gtid)
	at, dur := b.span(start, end)
	e := model.NewEvent(pid, kind, name, at, dur)
	e.Stream = b.thread(pid, tidOf(gtid))
	return e
}

// nvtxColumns are the NVTX_EVENTS columns read, NULL where a version lacks one.
var nvtxColumns = []string{"start", "end", "eventType", "text", "textId", "domainId", "globalTid", "jsonText", "jsonTextId"}

// nvtxCols are the columns of nvtxColumns the table has, "" (NULL) for
// the others.
func (b *builder) nvtxCols() []string {
	cols := make([]string, len(nvtxColumns))
	for i, c := range nvtxColumns {
		if b.d.has("NVTX_EVENTS", c) {
			cols[i] = c
		}
	}
	return cols
}

// nvtxRec is one NVTX range or mark, kept until the table's domains are
// known.
type nvtxRec struct {
	start, end, typ, gtid, domain int64
	textKey                       int64 // textKey's
	endNull                       bool
	text, payload                 string
}

// readNVTX appends ranges and marks as annotations (or CPU operators for
// PyTorch operator names) and keeps NCCL's ranges for linking. The table
// is read in one pass (domains may come after the ranges that use them),
// the rows filtered here rather than by SQLite.
func (b *builder) readNVTX() error {
	if !b.d.has("NVTX_EVENTS", "start", "eventType") {
		return nil
	}
	domains := map[int64]string{}
	pooled := nvtxPool.Get().(*[]nvtxRec)
	defer putNVTX(pooled)
	recs := *pooled
	if cap(recs) < min(b.nvtxBound, 1<<20) {
		recs = make([]nvtxRec, 0, min(b.nvtxBound, 1<<20)) // a bound, not a count: capped
	}
	var v nvtxVals
	err := b.d.readTable("NVTX_EVENTS", b.nvtxCols(), func(s row) {
		v.nulls = s.Int64s(v.v[:], nvtxInts)
		switch typ := v.v[2]; typ {
		case nvtxDomainCreate:
			domains[or(v.v[:], v.nulls, 5, 0)] = b.textOr(s, &v, 3, 4)
		case nvtxMark, nvtxPushPop, nvtxStartEnd:
			recs = append(recs, b.nvtxRec(s, &v, typ))
		}
	})
	if err != nil {
		return err
	}
	*pooled = recs
	names := nvtxNames{m: map[nvtxKey]nvtxName{}, byText: make([]textName, len(b.textList))}
	for i := range recs {
		b.nvtxRow(&recs[i], domains, &names)
	}
	return nil
}

// nvtxNames are the nvtxNames worked out: by key, and for the texts read
// (keys 0 ... len(textList)-1) the last one of each text, by text.
type nvtxNames struct {
	m      map[nvtxKey]nvtxName
	byText []textName
}

type textName struct {
	domain int64
	n      nvtxName
	set    bool
}

// nvtxPool holds the buffers of NVTX rows between reports (an export per
// rank: each buffer was a sixth of what reading one allocated).
var nvtxPool = sync.Pool{New: func() any { return new([]nvtxRec) }}

// putNVTX empties a buffer of nvtxPool (its texts freed) and puts it back.
func putNVTX(p *[]nvtxRec) {
	clear((*p)[:cap(*p)])
	*p = (*p)[:0]
	nvtxPool.Put(p)
}

// nvtxKey is what an NVTX row's event name comes from; nvtxName what it
// gives, worked out once per distinct key (texts repeat step after step).
type nvtxKey struct{ domain, text int64 } // domainId, textKey

type nvtxName struct {
	name int32 // in Trace.Names
	kind model.Kind
	nccl bool // a range of the NCCL domain
}

// nvtxName is the event name, kind and NCCL-ness of text (of key k.text)
// in domain k.domain.
func (b *builder) nvtxName(k nvtxKey, text string, domains map[int64]string, names *nvtxNames) nvtxName {
	var t *textName
	if k.text >= 0 && k.text < int64(len(names.byText)) {
		if t = &names.byText[k.text]; t.set && t.domain == k.domain {
			return t.n // a text is mostly of one domain: no map lookup
		}
	}
	n, ok := names.m[k]
	if !ok {
		n = b.newNVTXName(k, text, domains)
		names.m[k] = n
	}
	if t != nil {
		*t = textName{k.domain, n, true}
	}
	return n
}

// newNVTXName works out nvtxName's result for key k.
func (b *builder) newNVTXName(k nvtxKey, text string, domains map[int64]string) nvtxName {
	domain, name := domains[k.domain], text
	if domain != "" {
		name = domain + ":" + text
	}
	return nvtxName{b.tr.Names.Intern(name), annotationKind(text), domain == "NCCL"}
}

// nvtxVals are an NVTX row's integer columns (all but the texts, 3 and 7)
// and its NULL columns, from Int64s.
type nvtxVals struct {
	v     [9]int64
	nulls uint64
}

// nvtxInts are the columns of nvtxColumns read as integers.
const nvtxInts = 1<<9 - 1&^(1<<3|1<<7)

func (b *builder) nvtxRec(s row, v *nvtxVals, typ int64) nvtxRec {
	r := nvtxRec{start: v.v[0], typ: typ, endNull: !notNull(v.nulls, 1),
		domain: or(v.v[:], v.nulls, 5, 0), gtid: or(v.v[:], v.nulls, 6, 0)}
	r.text, r.textKey = b.textKey(s, v, 3, 4)
	r.end = or(v.v[:], v.nulls, 1, r.start)
	if typ == nvtxMark || !r.endNull {
		r.payload = b.textOr(s, v, 7, 8) // the rows nvtxRow keeps
	}
	return r
}

// textOr is text column col, or else the StringIds entry of column id.
func (b *builder) textOr(s row, v *nvtxVals, col, id int) string {
	t, _ := b.textKey(s, v, col, id)
	return t
}

// textKey is textOr and a key telling the texts apart: for a text read,
// its index in textList (each text kept once: NVTX names and payloads
// repeat from step to step); -2-id for StringIds entry id; -1 for none.
func (b *builder) textKey(s row, v *nvtxVals, col, id int) (string, int64) {
	if !notNull(v.nulls, col) {
		sid := or(v.v[:], v.nulls, id, -1)
		if sid < 0 || sid >= int64(len(b.strs)) {
			return "", -1
		}
		return b.strs[sid], -2 - sid
	}
	i := b.textIndex(s.ColumnRawText(col))
	return b.textList[i], int64(i)
}

// textIndex is raw's index in textList, raw added when new. A text is
// first looked for in a small table by a hash of its length and its first
// and last 8 bytes, compared byte for byte; the map (hashing the whole
// text, a cache miss) only when that slot holds another text.
func (b *builder) textIndex(raw []byte) int32 {
	if b.textSeen == nil {
		b.textSeen = new([textSlots]int32)
	}
	slot := &b.textSeen[textSlot(raw)]
	if i := *slot - 1; i >= 0 && b.textList[i] == string(raw) {
		return i
	}
	i, ok := b.texts[string(raw)]
	if !ok {
		t := string(raw)
		i = int32(len(b.textList))
		b.texts[t] = i
		b.textList = append(b.textList, t)
	}
	*slot = i + 1
	return i
}

// textSlots is the size of textIndex's table (a few hundred distinct texts
// in an export's NVTX ranges).
const textSlots = 1 << textBits

const textBits = 10

// textSlot is raw's slot in textIndex's table.
func textSlot(raw []byte) uint32 {
	n := len(raw)
	x := uint64(n)
	if n >= 8 {
		x ^= binary.LittleEndian.Uint64(raw) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(raw[n-8:]), 31)
	} else {
		for _, c := range raw {
			x = x<<8 | uint64(c)
		}
	}
	return uint32((x * 0x9e3779b97f4a7c15) >> (64 - textBits))
}

func (b *builder) nvtxRow(r *nvtxRec, domains map[int64]string, names *nvtxNames) {
	if r.typ != nvtxMark && r.endNull {
		b.skipRows["nvtx range without an end"]++
		return
	}
	b.nvtxRows++
	n := b.nvtxName(nvtxKey{r.domain, r.textKey}, r.text, domains, names)
	b.tr.Events.Append(b.cpuEvent(r.start, r.end, r.gtid, n.kind, n.name))
	if n.nccl {
		b.nccl = append(b.nccl, ncclRange{ev: int32(b.tr.Events.Len() - 1), api: r.text, payload: r.payload})
	}
}

// annotationKind tells PyTorch operator ranges (--pytorch=autograd-nvtx)
// from user annotations.
func annotationKind(name string) model.Kind {
	for _, p := range []string{"aten::", "c10d::", "autograd::", "torch::"} {
		if strings.HasPrefix(name, p) {
			return model.KindCPUOp
		}
	}
	return model.KindAnnotation
}
