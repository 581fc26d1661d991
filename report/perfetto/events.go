package perfetto

import (
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/palette"
	"github.com/tpptrace/tpptrace/report/prose"
)

// events writes every event of tr as a complete ("X") slice.
func (e *exporter) events(tr *model.Trace) {
	for i := 0; i < tr.Events.Len(); i++ {
		ev := tr.Events.At(i)
		off := e.offsets[int(ev.Rank)]
		o := e.newObj().str("ph", "X").str("name", tr.Name(i)).str("cat", ev.Kind.String()).
			int("pid", pid(int(ev.Rank))).int("tid", tid(ev.Stream)).us("ts", ev.Start-off).us("dur", ev.Dur)
		if args := eventArgs(tr, ev); args != nil {
			o.raw("args", args)
		}
		e.emit(o)
	}
}

// eventArgs returns the iteration, microbatch and collective of an event,
// or nil when it has none of them.
func eventArgs(tr *model.Trace, ev model.Event) []byte {
	if ev.Iter < 0 && ev.Micro < 0 && ev.Coll < 0 {
		return nil
	}
	a := newObj(nil)
	if ev.Iter >= 0 {
		a.int("step", int64(ev.Iter))
	}
	if ev.Micro >= 0 {
		a.int("microbatch", int64(ev.Micro))
	}
	if ev.Coll >= 0 && int(ev.Coll) < tr.Colls.Len() {
		c := tr.Colls.At(int(ev.Coll))
		a.str("op", c.Op.String())
		if c.Bytes >= 0 {
			a.int("bytes", c.Bytes)
		}
		if c.Comm >= 0 && int(c.Comm) < len(tr.Comms) {
			a.str("comm", tr.Comms[c.Comm].ID).str("axis", tr.Comms[c.Comm].Axis.String())
		}
	}
	return a.done()
}

// classified writes the Result's classified step as slices on each rank's
// "classified step" track: the bubbles, exposed communication and the rest.
func (e *exporter) classified(r *result.Result) {
	if r.Timeline == nil {
		return
	}
	for _, row := range r.Timeline.Rows {
		for _, s := range row.Segments {
			args := newObj(nil).str("category", s.Category).str("colour", palette.Hex(s.Category)).
				str("length", vocab.Duration(s.EndNs-s.StartNs))
			if s.Phase != "" {
				args.str("phase", s.Phase).int("microbatch", int64(s.Micro))
			}
			e.emit(e.newObj().str("ph", "X").str("name", vocab.CategoryLabel(s.Category)).str("cat", "tpptrace").
				int("pid", pid(row.Rank)).int("tid", classifiedTid).us("ts", s.StartNs).us("dur", s.EndNs-s.StartNs).
				raw("args", args.done()))
		}
	}
}

// findings writes each finding as a global instant at the start of the
// classified step (or the first step), and once more on each rank it names.
func (e *exporter) findings(r *result.Result) {
	at := int64(0)
	if r.Timeline != nil {
		at = r.Timeline.StartNs
	} else if len(r.Iterations) > 0 {
		at = r.Iterations[0].StartNs
	}
	for _, f := range r.Findings {
		args := newObj(nil).str("kind", f.Kind).str("severity", f.Severity).str("cost_per_step", vocab.Duration(f.CostNs)).
			str("cost_share", vocab.Percent(f.CostShare)).raw("evidence", strings(prose.Evidence(r, f))).str("remedy", f.Remedy).done()
		name := "finding: " + prose.Headline(r, f)
		e.emit(e.newObj().str("ph", "i").str("s", "g").str("name", name).str("cat", "finding").
			int("pid", 0).int("tid", 0).us("ts", at).raw("args", args))
		for _, rank := range f.Ranks {
			e.emit(e.newObj().str("ph", "i").str("s", "p").str("name", name).str("cat", "finding").
				int("pid", pid(rank)).int("tid", classifiedTid).us("ts", at).raw("args", args))
		}
	}
}
