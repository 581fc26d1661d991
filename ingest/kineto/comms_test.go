package kineto

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// pgDoc is a rank's trace with one all-reduce kernel on process group pg
// whose stated ranks are ranks ("" leaves them out).
func pgDoc(rank int, pg, ranks string) string {
	pgRanks := ""
	if ranks != "" {
		pgRanks = fmt.Sprintf(`, "Process Group Ranks": %q`, ranks)
	}
	return fmt.Sprintf(`{"distributedInfo": {"rank": %d}, "traceEvents": [
	{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 9, "ts": 5, "dur": 1,
	 "args": {"stream": 9, "Collective name": "allreduce", "Process Group Name": %q, "Process Group Description": "mesh_dp"%s}}]}`, rank, pg, pgRanks)
}

func readDocs(t *testing.T, docs ...string) *model.Trace {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, d := range docs {
		paths = append(paths, writeTrace(t, dir, fmt.Sprintf("f%d.json", i), d))
	}
	tr, err := Read(context.Background(), paths, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	return tr
}

func commIDs(tr *model.Trace) map[string][]int32 {
	m := map[string][]int32{}
	for _, c := range tr.Comms {
		m[c.ID] = c.Members
	}
	return m
}

func TestSamePGNameDifferentRanksAreDifferentComms(t *testing.T) {
	tr := readDocs(t, pgDoc(0, "3", "[0, 1]"), pgDoc(1, "3", "[0, 1]"), pgDoc(2, "3", "[2, 3]"), pgDoc(3, "3", ""))
	ids := commIDs(tr)
	if len(ids) != 2 || !slices.Equal(ids["3@0,1"], []int32{0, 1}) || !slices.Equal(ids["3@2,3"], []int32{2, 3}) {
		t.Fatalf("communicators %v", ids)
	}
	for _, c := range tr.Comms {
		if c.Axis != model.AxisDP {
			t.Errorf("%s axis %s, want DP from mesh_dp", c.ID, c.Axis)
		}
	}
}

func TestSamePGNameSameRanksIsOneComm(t *testing.T) {
	tr := readDocs(t, pgDoc(0, "5", "[0, 1]"), pgDoc(1, "5", "[0, 1]"))
	if ids := commIDs(tr); len(ids) != 1 || !slices.Equal(ids["5"], []int32{0, 1}) {
		t.Fatalf("communicators %v", ids)
	}
	for i := 0; i < tr.Colls.Len(); i++ {
		if tr.Colls.Comm[i] != 0 || tr.Colls.Op[i] != model.OpAllReduce || tr.Colls.GroupSize[i] != 2 {
			t.Errorf("collective %+v", tr.Colls.At(i))
		}
	}
}

func TestP2PWithoutPGKeepsPeer(t *testing.T) {
	doc := `{"distributedInfo": {"rank": 2}, "traceEvents": [
	{"ph": "X", "cat": "user_annotation", "name": "nccl:recv 2<-1", "pid": 1, "tid": 1, "ts": 10, "dur": 10},
	{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 12, "dur": 2, "args": {"correlation": 4}},
	{"ph": "X", "cat": "kernel", "name": "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)", "pid": 0, "tid": 30, "ts": 20, "dur": 9, "args": {"stream": 30, "correlation": 4}},
	{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 40, "dur": 2, "args": {"correlation": 5}},
	{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_SendRecv(x)", "pid": 0, "tid": 30, "ts": 50, "dur": 9, "args": {"stream": 30, "correlation": 5}}]}`
	tr := readDocs(t, doc)
	var got []model.Collective
	for _, c := range tr.Events.Coll {
		if c >= 0 {
			got = append(got, tr.Colls.At(int(c)))
		}
	}
	if len(got) != 2 || got[0].Op != model.OpRecv || got[0].Peer != 1 || got[0].Comm != -1 || got[1].Op != model.OpSendRecv || got[1].Peer != -1 {
		t.Fatalf("collectives %+v", got)
	}
}

// TestWorldSizeAndAbsentMembers: three of four ranks' traces, each
// declaring world_size 4 and a process group of all four, give one
// declaration counted three times and rank 3 as an absent member.
func TestWorldSizeAndAbsentMembers(t *testing.T) {
	doc := func(rank int) string {
		return fmt.Sprintf(`{"distributedInfo": {"rank": %d, "world_size": 4, "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "pg_size": 4, "ranks": [0, 1, 2, 3]}]},
	"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 9, "ts": 5, "dur": 1, "args": {"stream": 9}}]}`, rank)
	}
	tr := readDocs(t, doc(0), doc(1), doc(2))
	if want := []model.WorldDecl{{Size: 4, By: model.WorldByKineto, Count: 3}}; !slices.Equal(tr.World, want) {
		t.Errorf("World = %+v, want %+v", tr.World, want)
	}
	if len(tr.Absent) != 1 || tr.Absent[0].Comm != "0" || !slices.Equal(tr.Absent[0].Ranks, []int32{3}) {
		t.Errorf("Absent = %+v, want rank 3 of group 0", tr.Absent)
	}
	if tr := readDocs(t, pgDoc(0, "3", "[0]")); tr.World != nil || tr.Absent != nil {
		t.Errorf("no world_size, no missing member: World %+v Absent %+v", tr.World, tr.Absent)
	}
}
