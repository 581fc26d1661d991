package perfetto

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// classifiedTid is the thread id of the track holding the classified step.
const classifiedTid = 1_000_000_000

// exporter writes the trace event array.
type exporter struct {
	w       *bufio.Writer
	n       int
	buf     []byte
	offsets map[int]int64 // rank -> clock offset
}

// pid is the process id of a rank; 0 is avoided, some viewers treat it
// specially.
func pid(rank int) int64 { return int64(rank) + 1 }

// Write exports r (clock offsets, classified step, findings) and, when tr
// is not nil, every event of tr. Either may be absent but not both.
func Write(w io.Writer, r *result.Result, tr *model.Trace) error {
	if r == nil && tr == nil {
		return errors.New("perfetto: nothing to export")
	}
	e := &exporter{w: bufio.NewWriterSize(w, 1<<16), offsets: map[int]int64{}}
	if r != nil {
		for _, rs := range r.Ranks {
			e.offsets[rs.Rank] = rs.ClockOffsetNs
		}
	}
	e.w.WriteString(`{"displayTimeUnit":"ns","otherData":{"producer":"tpptrace"},"traceEvents":[` + "\n")
	e.processes(r, tr)
	if tr != nil {
		e.threads(tr)
		e.events(tr)
	}
	if r != nil {
		e.classified(r)
		e.criticalPath(r)
		e.findings(r)
	}
	e.w.WriteString("\n]}\n")
	if err := e.w.Flush(); err != nil {
		return fmt.Errorf("perfetto: write: %w", err)
	}
	return nil
}

// emit writes one event object.
func (e *exporter) emit(o *obj) {
	if e.n > 0 {
		e.w.WriteString(",\n")
	}
	e.n++
	e.buf = o.done()
	e.w.Write(e.buf)
}

func (e *exporter) newObj() *obj { return newObj(e.buf[:0]) }

// meta writes a metadata event: a process or thread name or sort index.
func (e *exporter) meta(name string, pid, tid int64, args []byte) {
	e.emit(e.newObj().str("ph", "M").str("name", name).int("pid", pid).int("tid", tid).raw("args", args))
}
