package layout

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/report/prose"
)

func problemKinds(ps []Problem) string {
	var k []string
	for _, p := range ps {
		k = append(k, fmt.Sprintf("%s%v", p.Kind, p.Ranks))
	}
	return strings.Join(k, " ")
}

// megatronJob: TP2 PP2 DP2 on two hosts of four GPUs, groups described as
// Megatron creates them, with the given TP groups.
func megatronJob(tp [][]int32) *layoutJob {
	j := newLayoutJob(8, 4, 1)
	for i, g := range tp {
		j.comm(fmt.Sprint("tp", i), "TENSOR_MODEL_PARALLEL_GROUP", g)
	}
	for i, g := range [][]int32{{0, 4}, {1, 5}, {2, 6}, {3, 7}} {
		j.comm(fmt.Sprint("pp", i), "PIPELINE_MODEL_PARALLEL_GROUP", g)
	}
	return j
}

func TestTopologyAgreeingGroups(t *testing.T) {
	j := megatronJob([][]int32{{0, 1}, {2, 3}, {4, 5}, {6, 7}})
	l, err := Infer(j.done(), Flags{})
	if err != nil || l.TP != 2 || l.PP != 2 || l.DP != 2 || len(l.Problems) != 0 {
		t.Fatalf("layout %+v err %v, want TP2 PP2 DP2 without problems", l, err)
	}
}

// TestTopologyFlagsContradictDescriptions: the user's flags fix the order
// (so no order is inferred), but the described TP groups stride by two.
func TestTopologyFlagsContradictDescriptions(t *testing.T) {
	j := megatronJob([][]int32{{0, 2}, {1, 3}, {4, 6}, {5, 7}})
	l, err := Infer(j.done(), Flags{TP: 2, PP: 2, DP: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := "group_mismatch[0 2] group_mismatch[1 3] group_mismatch[4 6] group_mismatch[5 7]"
	if got := problemKinds(l.Problems); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if !strings.Contains(prose.Sentence(nil, l.Problems[0].Says), "TENSOR_MODEL_PARALLEL_GROUP") {
		t.Errorf("summary should name the description: %s", prose.Sentence(nil, l.Problems[0].Says))
	}
}

// TestTopologyTPAcrossHostsOnce: a TP group that spans hosts is reported
// once, by coordinates, not again by membership.
func TestTopologyTPAcrossHostsOnce(t *testing.T) {
	j := newLayoutJob(8, 3, 1)
	for i, g := range [][]int32{{0, 1}, {2, 3}, {4, 5}, {6, 7}} {
		j.comm(fmt.Sprint("tp", i), "TENSOR_MODEL_PARALLEL_GROUP", g)
	}
	l, _ := Infer(j.done(), Flags{})
	n := 0
	for _, p := range l.Problems {
		if p.Kind == "tp_across_hosts" {
			n++
			if !slices.Equal(p.Ranks, []int32{2, 3}) {
				t.Errorf("tp_across_hosts on %v, want [2 3]", p.Ranks)
			}
		}
	}
	if n != 1 {
		t.Fatalf("problems %s, want tp_across_hosts[2 3] once", problemKinds(l.Problems))
	}
}
