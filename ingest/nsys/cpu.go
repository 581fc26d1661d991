package nsys

import (
	"strings"

	"github.com/ncruces/go-sqlite3"
	"github.com/tpptrace/tpptrace/ingest/model"
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
	names := map[int64]int32{}
	b.grow(t)
	return b.d.each(`SELECT start, end, globalTid, correlationId, nameId FROM `+t, func(s *sqlite3.Stmt) {
		sid := s.ColumnInt64(4)
		name, ok := names[sid]
		if !ok {
			name = b.tr.Names.Intern(runtimeName(b.strs.get(sid)))
			names[sid] = name
		}
		e := b.cpuEvent(s.ColumnInt64(0), s.ColumnInt64(1), nullInt(s, 2, 0), model.KindRuntime, name)
		e.Corr = nullInt(s, 3, -1)
		b.tr.Events.Append(e)
	})
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

func (b *builder) nvtxQuery(where string) string {
	cols := make([]string, len(nvtxColumns))
	for i, c := range nvtxColumns {
		cols[i] = "NULL"
		if b.d.has("NVTX_EVENTS", c) {
			cols[i] = c
		}
	}
	return `SELECT ` + strings.Join(cols, ", ") + ` FROM NVTX_EVENTS WHERE ` + where
}

// readNVTX appends ranges and marks as annotations (or CPU operators for
// PyTorch operator names) and keeps NCCL's ranges for linking.
func (b *builder) readNVTX() error {
	if !b.d.has("NVTX_EVENTS", "start", "eventType") {
		return nil
	}
	domains := map[int64]string{}
	err := b.d.each(b.nvtxQuery(`eventType = 75`), func(s *sqlite3.Stmt) {
		domains[nullInt(s, 5, 0)] = b.nvtxText(s)
	})
	if err != nil {
		return err
	}
	return b.d.each(b.nvtxQuery(`eventType IN (34, 59, 60)`), func(s *sqlite3.Stmt) { b.nvtxRow(s, domains) })
}

func (b *builder) nvtxText(s *sqlite3.Stmt) string {
	if s.ColumnType(3) != sqlite3.NULL {
		return s.ColumnText(3)
	}
	return b.strs.get(nullInt(s, 4, -1))
}

func (b *builder) nvtxRow(s *sqlite3.Stmt, domains map[int64]string) {
	start, typ := s.ColumnInt64(0), s.ColumnInt64(2)
	end := nullInt(s, 1, start)
	if typ != nvtxMark && s.ColumnType(1) == sqlite3.NULL {
		b.skipRows["nvtx range without an end"]++
		return
	}
	b.nvtxRows++
	text, domain := b.nvtxText(s), domains[nullInt(s, 5, 0)]
	name := text
	if domain != "" {
		name = domain + ":" + text
	}
	e := b.cpuEvent(start, end, nullInt(s, 6, 0), annotationKind(text), b.tr.Names.Intern(name))
	b.tr.Events.Append(e)
	if domain == "NCCL" {
		b.nccl = append(b.nccl, ncclRange{ev: int32(b.tr.Events.Len() - 1), api: text, payload: b.payloadText(s)})
	}
}

func (b *builder) payloadText(s *sqlite3.Stmt) string {
	if s.ColumnType(7) != sqlite3.NULL {
		return s.ColumnText(7)
	}
	return b.strs.get(nullInt(s, 8, -1))
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
