package perfetto

import (
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// criticalTid is the thread id of the track holding the critical path.
const criticalTid = classifiedTid + 1

// criticalPath writes the what-if replay's critical path of one step: a
// slice per op on each rank's "critical path" track, and a flow arrow from
// each op to the next, across ranks.
func (e *exporter) criticalPath(r *result.Result) {
	if r.WhatIf == nil || len(r.WhatIf.CriticalPathOps) == 0 {
		return
	}
	named := map[int]bool{}
	ops := r.WhatIf.CriticalPathOps
	for i, op := range ops {
		if !named[op.Rank] {
			named[op.Rank] = true
			e.meta("thread_name", pid(op.Rank), criticalTid, newObj(nil).str("name", "tpptrace: critical path").done())
			e.meta("thread_sort_index", pid(op.Rank), criticalTid, newObj(nil).int("sort_index", -2).done())
		}
		args := newObj(nil).str("category", op.Category).str("length", vocab.Duration(op.EndNs-op.StartNs)).done()
		e.emit(e.newObj().str("ph", "X").str("name", op.Name).str("cat", "critical_path").
			int("pid", pid(op.Rank)).int("tid", criticalTid).us("ts", op.StartNs).us("dur", max(op.EndNs-op.StartNs, 0)).raw("args", args))
		if i == 0 {
			continue
		}
		prev := ops[i-1]
		id := int64(r.WhatIf.CriticalPathStep)<<32 | int64(i)
		e.emit(e.newObj().str("ph", "s").str("name", "critical path").str("cat", "critical_path").int("id", id).
			int("pid", pid(prev.Rank)).int("tid", criticalTid).us("ts", max(prev.EndNs-1, prev.StartNs)))
		e.emit(e.newObj().str("ph", "f").str("bp", "e").str("name", "critical path").str("cat", "critical_path").int("id", id).
			int("pid", pid(op.Rank)).int("tid", criticalTid).us("ts", op.StartNs))
	}
}
