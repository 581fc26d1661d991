package summary

import (
	"cmp"
	"fmt"
	"github.com/tpptrace/tpptrace/analysis/result/tables"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/clock"
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// CollRow is tables.CollRow.
type CollRow = tables.CollRow

// NCCL times every matched collective instance in the window on the
// Result's aligned clock (its ranks' clock_offset_ns) and groups them.
func NCCL(t *model.Trace, res *result.Result, w Window) []CollRow {
	off := offsets(res)
	tm := measure.Collectives(t, clock.Match(t), func(r int32) int64 { return off[r] })
	acc := map[collKey]*collAcc{}
	var order []collKey
	for _, in := range tm.Inst {
		ms := tm.Members[in.First : in.First+in.N]
		if len(ms) == 0 || !w.Holds(t, int(ms[0].Event)) {
			continue
		}
		k := collKey{in.Comm, in.Axis, in.Op, bucketOf(in.Bytes)}
		if acc[k] == nil {
			acc[k] = &collAcc{}
			order = append(order, k)
		}
		acc[k].add(t, in, ms)
	}
	rows := make([]CollRow, 0, len(order))
	for _, k := range order {
		rows = append(rows, acc[k].row(t, k))
	}
	slices.SortStableFunc(rows, func(a, b CollRow) int { return cmp.Compare(b.TimeNs, a.TimeNs) })
	return rows
}

func offsets(res *result.Result) map[int32]int64 {
	off := map[int32]int64{}
	for _, r := range res.Ranks {
		off[int32(r.Rank)] = r.ClockOffsetNs
	}
	return off
}

type collKey struct {
	comm   int32
	axis   model.Axis
	op     model.Op
	bucket int // floor(log4(bytes)), -1 unknown
}

type collAcc struct {
	count, members        int
	bytes                 int64
	known                 bool
	dur, wait, transfer   float64 // per member, summed over instances
	busBytes, busTransfer float64
}

func (a *collAcc) add(t *model.Trace, in measure.Timing, ms []measure.Member) {
	a.count++
	a.members = max(a.members, len(ms))
	var dur, wait, tr int64
	for _, m := range ms {
		dur += t.Events.Dur[m.Event]
		wait += m.Wait
		tr += m.Transfer
	}
	n := float64(len(ms))
	a.dur, a.wait, a.transfer = a.dur+float64(dur)/n, a.wait+float64(wait)/n, a.transfer+float64(tr)/n
	if in.Bytes >= 0 {
		a.bytes += in.Bytes
		a.known = true
		a.busBytes += float64(in.Bytes) * busFactor(in.Op, len(ms))
		a.busTransfer += float64(in.Transfer)
	}
}

func (a *collAcc) row(t *model.Trace, k collKey) CollRow {
	r := CollRow{Comm: commName(t, k.comm), Axis: axisName(k.axis), Op: k.op.String(), Bucket: bucketName(k.bucket), Members: a.members,
		Count: a.count, TimeNs: int64(a.dur), WaitNs: int64(a.wait), TransferNs: int64(a.transfer)}
	if a.known {
		r.Bytes = a.bytes
	}
	if a.busTransfer > 0 {
		r.BusGBps = a.busBytes / a.busTransfer // bytes per ns = GB/s
	}
	return r
}

// busFactor turns an op's input-side message size into nccl-tests' bus bytes.
func busFactor(op model.Op, n int) float64 {
	f := float64(n)
	switch {
	case n < 2:
		return 1
	case op == model.OpAllReduce:
		return 2 * (f - 1) / f
	case op == model.OpReduceScatter || op == model.OpAllToAll:
		return (f - 1) / f
	case op == model.OpAllGather:
		return f - 1
	}
	return 1
}

func commName(t *model.Trace, c int32) string {
	if c < 0 || int(c) >= len(t.Comms) {
		return "unknown"
	}
	c0 := t.Comms[c]
	name := cmp.Or(c0.Name, c0.ID)
	if c0.Desc != "" && c0.Desc != name {
		name += " " + c0.Desc
	}
	return name
}

// bucketOf is floor(log4(bytes)), -1 when unknown.
func bucketOf(b int64) int {
	if b < 0 {
		return -1
	}
	n := 0
	for b >= 4 {
		b /= 4
		n++
	}
	return n
}

func bucketName(b int) string {
	if b < 0 {
		return "unknown"
	}
	return fmt.Sprintf("%s–%s", sizeName(int64(1)<<(2*b)), sizeName(int64(1)<<(2*b+2)))
}

// sizeName writes a power of two as "256 B", "4 KiB", "1 MiB".
func sizeName(n int64) string {
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB"} {
		if n < 1024 {
			return fmt.Sprintf("%d %s", n, u)
		}
		n /= 1024
	}
	return fmt.Sprintf("%d PiB", n)
}
