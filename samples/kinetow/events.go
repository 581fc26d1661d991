package kinetow

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

const samplesRPC = samples.RecordParamComms

// rankWriter writes one rank's events.
type rankWriter struct {
	w      *bufio.Writer
	t      *model.Trace
	rank   model.Rank
	lo, hi int
	l      *links
	n      int              // events written
	quoted map[int32][]byte // name id → JSON string
	buf    []byte
}

// WriteRank writes rank's Kineto trace (uncompressed JSON) to w.
func WriteRank(w *bufio.Writer, job *samples.Job, rank int32) error {
	t := job.Trace
	i := t.FindRank(rank)
	if i < 0 {
		return fmt.Errorf("rank %d is not in the job", rank)
	}
	lo, hi := t.Events.RankRange(rank)
	rw := &rankWriter{w: w, t: t, rank: t.Ranks[i], lo: lo, hi: hi, l: link(t, lo, hi), quoted: map[int32][]byte{}}
	if err := header(w, job, rank); err != nil {
		return err
	}
	for j := lo; j < hi; j++ {
		rw.event(j)
	}
	rw.memory()
	rw.metadata()
	return footer(w, rank)
}

// sep starts the next element of traceEvents.
func (rw *rankWriter) sep() {
	if rw.n > 0 {
		rw.buf = append(rw.buf, ",\n"...)
	}
	rw.n++
}

func (rw *rankWriter) flush() {
	rw.w.Write(rw.buf)
	rw.buf = rw.buf[:0]
}

// name returns the JSON-quoted name of event i.
func (rw *rankWriter) name(i int) []byte {
	id := rw.t.Events.Name[i]
	q, ok := rw.quoted[id]
	if !ok {
		q = quote(rw.t.Names.Get(id))
		rw.quoted[id] = q
	}
	return q
}

// quote is s as a JSON string, without HTML escaping (Kineto writes < and >
// as they are).
func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

var cats = map[model.Kind]string{
	model.KindCompute: "kernel", model.KindComm: "kernel", model.KindMemcpy: "gpu_memcpy", model.KindMemset: "gpu_memset",
	model.KindCPUOp: "cpu_op", model.KindAnnotation: "user_annotation", model.KindGPUAnnotation: "gpu_user_annotation",
	model.KindRuntime: "cuda_runtime",
}

// event writes row i as an "X" event.
func (rw *rankWriter) event(i int) {
	ev := &rw.t.Events
	k := ev.Kind[i]
	rw.sep()
	b := append(rw.buf, `  {"ph": "X", "cat": "`...)
	b = append(append(b, cats[k]...), `", "name": `...)
	b = append(b, rw.name(i)...)
	pid, tid := rw.rank.PID, rw.rank.PID
	if st := ev.Stream[i]; st >= 0 {
		tid = rw.t.Streams[st].ID
	}
	if k.OnGPU() {
		pid = int64(rw.rank.LocalGPU)
	}
	b = fmt.Appendf(b, `, "pid": %d, "tid": %d, "ts": `, pid, tid)
	b = appendTs(b, ev.Start[i])
	b = appendTs(append(b, `, "dur": `...), ev.Dur[i])
	rw.buf = append(b, `, "args": {`...)
	rw.args(i)
	rw.buf = append(rw.buf, "}}"...)
	if len(rw.buf) > 1<<15 {
		rw.flush()
	}
}

// appendTs writes ns as µs with three decimals, as Kineto's fmtTs does.
func appendTs(b []byte, ns int64) []byte {
	b = strconv.AppendInt(b, ns/1000, 10)
	f := ns % 1000
	return append(b, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
}
