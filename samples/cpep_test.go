package samples

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

func TestPlaceRoundTripsMegatronOrderWithCPEP(t *testing.T) {
	c := DefaultConfig()
	c.TP, c.CP, c.EP, c.DP, c.PP = 2, 3, 2, 2, 2
	if c.World() != 48 {
		t.Fatalf("world %d, want 48", c.World())
	}
	for r := range c.World() {
		p := c.Place(r)
		if got := p.TP + c.TP*(p.CP+c.CP*(p.EP+c.EP*(p.DP+c.DP*p.PP))); got != r || c.RankAt(p) != r {
			t.Fatalf("rank %d → %+v → %d", r, p, got)
		}
	}
}

// TestCPEPGroupsAndTraffic checks the CP and EP groups (Megatron
// descriptions, members one axis apart) and their kernels per rank and
// step: CP one all-gather per layer forward and one reduce-scatter per
// layer backward, EP two all-to-alls per layer and pass.
func TestCPEPGroupsAndTraffic(t *testing.T) {
	for _, tc := range []struct {
		name, desc string
		stride     int32
		ops        map[model.Op]int // per rank, step, microbatch and layer
	}{
		{"cp2", DescCP, 2, map[model.Op]int{model.OpAllGather: 1, model.OpReduceScatter: 1}},
		{"moe-ep4", DescEP, 2, map[model.Op]int{model.OpAllToAll: 4}},
	} {
		j := scenarioJob(t, tc.name)
		tr, c := j.Trace, j.Config
		comm := int32(-1)
		for i, g := range tr.Comms {
			if g.Desc != tc.desc {
				continue
			}
			if comm < 0 { // rank 0's group comes first
				comm = int32(i)
			}
			if g.Members[1]-g.Members[0] != tc.stride {
				t.Errorf("%s: group %v, want stride %d", tc.name, g.Members, tc.stride)
			}
		}
		if comm < 0 {
			t.Fatalf("%s: no %s group", tc.name, tc.desc)
		}
		got := map[model.Op]int{}
		for i := 0; i < tr.Events.Len(); i++ {
			if k := tr.Events.Coll[i]; tr.Events.Rank[i] == 0 && k >= 0 && tr.Colls.Comm[k] == comm {
				got[tr.Colls.Op[k]]++
			}
		}
		per := c.Steps * c.Microbatches * c.LayersPerStage
		for o, n := range tc.ops {
			if got[o] != n*per {
				t.Errorf("%s: rank 0 runs %d %v on its %s group, want %d", tc.name, got[o], o, tc.desc, n*per)
			}
		}
		ax := model.ParseAxis(map[string]string{DescCP: "CP", DescEP: "EP"}[tc.desc])
		for _, r := range j.Truth.Ranks {
			if r.CommNs[ax.String()] <= 0 || r.ExposedNs[ax.String()] > r.CommNs[ax.String()] {
				t.Errorf("%s rank %d: truth %s comm %d exposed %d", tc.name, r.Rank, ax, r.CommNs[ax.String()], r.ExposedNs[ax.String()])
			}
		}
	}
}
