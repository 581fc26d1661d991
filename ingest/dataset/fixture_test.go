package dataset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// buildTrace returns a realistic 4-rank job (TP=2, PP=2): two hosts, GPU
// streams and CPU threads, TP/PP/WORLD communicators, annotations, kernels,
// collectives with every field, GPU samples and skips. steps scales it.
func buildTrace(t testing.TB, steps int) *model.Trace {
	t.Helper()
	tr := &model.Trace{Sources: []model.Source{{Path: "rank0.json", Format: "kineto", Version: "1.1", Size: 1234}, {Path: "nvml.parquet", Format: "nvml-parquet", Size: 99}}}
	for r := int32(0); r < 4; r++ {
		tr.AddRank(model.Rank{Rank: r, Host: fmt.Sprintf("node%03d", r/2), PID: 1000 + int64(r), LocalGPU: r % 2,
			GPUName: "NVIDIA H100 80GB HBM3", GPUUUID: fmt.Sprintf("GPU-%d", r), BusID: fmt.Sprintf("0000:%02X:00.0", r),
			Coord: model.Coord{TP: r % 2, PP: r / 2, DP: 0, CP: -1, EP: -1}, Source: 0, ClockBase: 1_700_000_000_000_000_000 + int64(r)})
	}
	comms := []model.Communicator{
		{ID: "tp0", Name: "2", Desc: "TENSOR_MODEL_PARALLEL_GROUP", Members: []int32{0, 1}, Axis: model.AxisTP, AxisBy: model.AxisByDescription},
		{ID: "tp1", Name: "3", Desc: "TENSOR_MODEL_PARALLEL_GROUP", Members: []int32{2, 3}, Axis: model.AxisTP, AxisBy: model.AxisByMembers},
		{ID: "pp0", Members: []int32{0, 2}, Axis: model.AxisPP, AxisBy: model.AxisByTraffic},
		{ID: "world", Name: "0", Members: []int32{0, 1, 2, 3}, Axis: model.AxisWorld, AxisBy: model.AxisByFlag},
		{ID: "unused"},
	}
	for _, c := range comms {
		tr.AddComm(c)
	}
	for r := int32(3); r >= 0; r-- { // ranks out of order: Write must sort
		addRankEvents(tr, r, steps)
	}
	addSamples(tr)
	tr.Skip("rank3.json", 4096, "byte", "event with negative duration")
	tr.Skipped = append(tr.Skipped, model.Skip{Source: "nccl.log", Offset: -1, Reason: "unknown line", Count: 17})
	return tr
}

func addRankEvents(tr *model.Trace, r int32, steps int) {
	gpu := tr.AddStream(model.Stream{Rank: r, GPU: true, ID: 7, Device: r % 2, Name: "stream 7"})
	nccl := tr.AddStream(model.Stream{Rank: r, GPU: true, ID: 13, Device: r % 2, Name: "stream 13"})
	cpu := tr.AddStream(model.Stream{Rank: r, ID: 4000 + int64(r), Device: -1, Name: "thread (pt_main_thread)"})
	tp, pp := int32(r/2), int32(2)
	for s := 0; s < steps; s++ {
		base := int64(s)*1_000_000 + int64(r)*37
		step := model.NewEvent(r, model.KindAnnotation, tr.Names.Intern(fmt.Sprintf("ProfilerStep#%d", s)), base, 900_000)
		step.Stream, step.Iter = cpu, int32(s)
		tr.AddEvent(step)
		for k := 0; k < 6; k++ {
			t0 := base + 1000 + int64(k)*100_000
			op := model.NewEvent(r, model.KindCPUOp, tr.Names.Intern("aten::mm"), t0, 5_000)
			op.Stream, op.Corr, op.Iter, op.Micro = cpu, int64(s*100+k), int32(s), int32(k%2)
			tr.AddEvent(op)
			kern := model.NewEvent(r, model.KindCompute, tr.Names.Intern(fmt.Sprintf("sm90_xmma_gemm_%d", k%3)), t0+10_000, 40_000+int64(r)*10)
			kern.Stream, kern.Corr, kern.Iter, kern.Micro = gpu, op.Corr, int32(s), int32(k%2)
			tr.AddEvent(kern)
			tr.AddEvent(commEvent(tr, r, nccl, s, k, t0+55_000, tp, pp))
		}
		cp := model.NewEvent(r, model.KindMemcpy, tr.Names.Intern("Memcpy HtoD (Pageable -> Device)"), base+800_000, 3_000)
		cp.Stream = gpu
		tr.AddEvent(cp)
	}
}

func commEvent(tr *model.Trace, r, stream int32, s, k int, start int64, tp, pp int32) model.Event {
	c := model.NewCollective(model.OpAllReduce)
	c.Bytes, c.DType, c.Comm, c.Seq, c.GroupSize = int64(1<<20)*int64(k+1), tr.Names.Intern("bf16"), tp, int64(s*6+k), 2
	name := "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"
	if k == 5 && r%2 == 0 {
		c = model.NewCollective(model.OpSend)
		c.Comm, c.Peer, c.Bytes, c.DType = pp, 2-r, 4096, tr.Names.Intern("Float")
		name = "ncclDevKernel_SendRecv"
	}
	e := model.NewEvent(r, model.KindComm, tr.Names.Intern(name), start, 20_000)
	e.Stream, e.Coll, e.Iter = stream, tr.Colls.Append(c), int32(s)
	return e
}

func addSamples(tr *model.Trace) {
	tr.SampleGPUs = []model.SampledGPU{{Host: "node000", Index: 0, UUID: "GPU-0", BusID: "0000:00:00.0", Name: "H100"},
		{Host: "node000", Index: 1, UUID: "GPU-1", Name: "H100"}}
	for g := int32(0); g < 2; g++ {
		for i := int64(0); i < 5; i++ {
			tr.Samples.Append(model.GPUSample{GPU: g, TimeNs: 1_700_000_000_000_000_000 + i*100_000_000,
				SMUtil: 90 + int32(i), MemUtil: 40, SMClockMHz: 1980, MemClockMHz: 2619, PowerMW: 650_000, PowerLimitMW: 700_000,
				TempC: 61, MemUsedBytes: 70 << 30, ClockReasons: 1<<63 | 4, PCIeTxKBs: -1, PCIeRxKBs: 12,
				NVLinkTxKBs: 1 << 40, NVLinkRxKBs: 3, ECCUncorrected: 0, XID: int32(i % 2 * 79),
				GPMSMUtil: 37.3 + float64(i), GPMTensorUtil: -1})
		}
	}
}

// dump renders a trace as text with every name id resolved, one line per
// row, so that two traces compare equal whatever their string tables' order.
func dump(tr *model.Trace) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, x := range tr.Sources {
		add("source %+v", x)
	}
	for _, x := range tr.Ranks {
		add("rank %+v", x)
	}
	for i, x := range tr.Streams {
		add("stream %d %+v", i, x)
	}
	for i, x := range tr.Comms {
		add("comm %d %q %q %q %v %v %v", i, x.ID, x.Name, x.Desc, x.Members, x.Axis, x.AxisBy)
	}
	for i := 0; i < tr.Colls.Len(); i++ {
		c := tr.Colls.At(i)
		add("coll %d %v %d %q %d %d %d %d", i, c.Op, c.Bytes, tr.Names.Get(c.DType), c.Comm, c.Seq, c.Peer, c.GroupSize)
	}
	for i := 0; i < tr.Events.Len(); i++ {
		e := tr.Events.At(i)
		name := tr.Name(i)
		e.Name = 0
		add("event %d %q %+v", i, name, e)
	}
	for _, x := range tr.SampleGPUs {
		add("gpu %+v", x)
	}
	for i := range tr.Samples.Len() {
		add("sample %+v", tr.Samples.At(i))
	}
	for _, x := range tr.Skipped {
		add("skip %+v", x)
	}
	return out
}

func diffDumps(t *testing.T, want, got []string) {
	t.Helper()
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			t.Fatalf("first difference at line %d:\nwant %s\ngot  %s", i, want[i], got[i])
		}
	}
	if len(want) != len(got) {
		t.Fatalf("want %d lines, got %d; extra: %s", len(want), len(got), strings.Join(append(want[len(got):], got[len(want):]...), "\n"))
	}
}
