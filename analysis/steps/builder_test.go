package steps

import (
	"fmt"

	"github.com/tpptrace/tpptrace/model"
)

// stepJob builds small hand-made traces of ranks running steps: each step
// has a range annotation, a kernel launch, a compute kernel and a DP
// all-reduce at the end, on rank-skewed clocks.
type stepJob struct {
	tr   *model.Trace
	dp   int32
	corr int64
}

const (
	stepLen  = 1_000_000
	stepBusy = 900_000
)

func newStepJob(ranks int) *stepJob {
	j := &stepJob{tr: &model.Trace{}}
	var members []int32
	for r := int32(0); r < int32(ranks); r++ {
		j.tr.AddRank(model.Rank{Rank: r, LocalGPU: r, Coord: model.UnknownCoord, Source: -1})
		members = append(members, r)
	}
	j.dp = j.tr.AddComm(model.Communicator{ID: "dp", Members: members, Axis: model.AxisDP})
	return j
}

// start is rank r's window start of step k on its own clock.
func start(r, k int) int64 { return 5_000_000 + int64(k)*stepLen + int64(r)*7_000 }

func (j *stepJob) add(rank int32, kind model.Kind, name string, start, dur, corr int64) int {
	e := model.NewEvent(rank, kind, j.tr.Names.Intern(name), start, dur)
	e.Corr = corr
	return j.tr.AddEvent(e)
}

// step adds rank r's step k: the annotation named label (none when ""), a
// launch and its kernel, and the DP all-reduce that ends the step's work.
func (j *stepJob) step(r, k int, label string) {
	s := start(r, k)
	if label != "" {
		j.add(int32(r), model.KindAnnotation, label, s, stepBusy, -1)
	}
	j.launch(r, s+10_000, s+50_000, 400_000)
	i := j.add(int32(r), model.KindComm, "ncclDevKernel_AllReduce", s+600_000, 200_000, -1)
	c := model.NewCollective(model.OpAllReduce)
	c.Comm = j.dp
	j.tr.Events.Coll[i] = j.tr.Colls.Append(c)
}

// launch adds a runtime launch at cpu and its kernel [gpu, gpu+dur); dur < 0
// leaves the kernel out (not captured).
func (j *stepJob) launch(r int, cpu, gpu, dur int64) int {
	j.corr++
	j.add(int32(r), model.KindRuntime, "cudaLaunchKernel", cpu, 5_000, j.corr)
	if dur < 0 {
		return -1
	}
	return j.add(int32(r), model.KindCompute, "gemm", gpu, dur, j.corr)
}

func stepName(k int) string { return fmt.Sprintf("ProfilerStep#%d", k) }

func (j *stepJob) done() *model.Trace {
	j.tr.Events.Sort()
	return j.tr
}
