package nccl

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/source"
)

func topoTrace(hosts []string, comms map[string][]int32) *model.Trace {
	t := &model.Trace{}
	for r, h := range hosts {
		t.AddRank(model.Rank{Rank: int32(r), Host: h, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
	}
	for desc, m := range comms {
		t.AddComm(model.Communicator{ID: desc + fmt.Sprint(m), Desc: strings.TrimRight(desc, "0123456789"), Members: m})
	}
	return t
}

func kinds(ps []TopoProblem) string {
	var k []string
	for _, p := range ps {
		k = append(k, fmt.Sprintf("%s%v", p.Kind, p.Ranks))
	}
	return strings.Join(k, " ")
}

func TestTopologyProblems(t *testing.T) {
	two := []string{"a", "a", "a", "a", "b", "b", "b", "b"}
	good := map[string][]int32{"TENSOR_MODEL_PARALLEL_GROUP1": {0, 1}, "TENSOR_MODEL_PARALLEL_GROUP2": {2, 3},
		"PIPELINE_MODEL_PARALLEL_GROUP1": {0, 4}, "DATA_PARALLEL_GROUP1": {0, 2}}
	if ps := TopologyProblems(topoTrace(two, good)); len(ps) != 0 {
		t.Fatalf("TP2·PP2·DP2 on two hosts: %s", kinds(ps))
	}
	bad := map[string][]int32{"TENSOR_MODEL_PARALLEL_GROUP1": {3, 4}, "PIPELINE_MODEL_PARALLEL_GROUP1": {0, 1},
		"DATA_PARALLEL_GROUP1": {0, 2, 4}}
	got := kinds(TopologyProblems(topoTrace(two, bad)))
	want := "tp_across_hosts[3 4] world_size_mismatch[] order_mismatch[3 4] order_mismatch[0 1]"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestTopologyFromRealDumps(t *testing.T) {
	// lock_gil: TP=4, PP=2, DP=2 on 16 ranks in Megatron order: no problem.
	tr, err := formatNamed("flight-recorder").Read(context.Background(), []string{frDir(t, "lock_gil_1st")}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ps := TopologyProblems(tr); len(ps) != 0 {
		t.Fatalf("problems on a Megatron-ordered job: %s", kinds(ps))
	}
}
