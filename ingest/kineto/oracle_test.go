package kineto

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

func readSet(t *testing.T, set string) *model.Trace {
	t.Helper()
	files, ok := traceSets(t)[set]
	if !ok {
		t.Skipf("set %s absent", set)
	}
	tr, err := Read(context.Background(), files, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func opCounts(tr *model.Trace) map[model.Op]int {
	m := map[model.Op]int{}
	for _, c := range tr.Events.Coll {
		if c >= 0 {
			m[tr.Colls.Op[c]]++
		}
	}
	return m
}

func iterSet(tr *model.Trace) []int32 {
	var out []int32
	for _, it := range tr.Events.Iter {
		if it >= 0 && !slices.Contains(out, it) {
			out = append(out, it)
		}
	}
	slices.Sort(out)
	return out
}

// Facts from kineto.md §3 (HTA's data): nccl_parser_config has 21 NCCL
// kernels, AllReduce x15 and Broadcast x6, with full collective args on the
// default PG "0" of ranks [0, 1]; steps #4-6.
func TestOracleNCCLData(t *testing.T) {
	tr := readSet(t, "hta_nccl_data_rank0of2")
	ops := opCounts(tr)
	if ops[model.OpAllReduce] != 15 || ops[model.OpBroadcast] != 6 || tr.CountByKind()[model.KindComm] != 21 {
		t.Errorf("ops %v", ops)
	}
	if len(tr.Comms) != 1 || tr.Comms[0].ID != "0" || tr.Comms[0].Axis != model.AxisWorld {
		t.Errorf("comms %+v", tr.Comms)
	}
	for i := 0; i < tr.Colls.Len(); i++ {
		if tr.Colls.Bytes[i] <= 0 || tr.Colls.GroupSize[i] != 2 || tr.Colls.Comm[i] != 0 {
			t.Fatalf("collective %d lacks its args: %+v", i, tr.Colls.At(i))
		}
	}
	if got := iterSet(tr); !slices.Equal(got, []int32{4, 5, 6}) {
		t.Errorf("iterations %v", got)
	}
}

// DLRM: 8 ranks, each 5 SendRecv kernels under nccl:all_to_all and 3
// AllReduce kernels, one step (#10).
func TestOracleDLRM(t *testing.T) {
	tr := readSet(t, "param_dlrm_8rank")
	if len(tr.Ranks) != 8 {
		t.Fatalf("%d ranks", len(tr.Ranks))
	}
	ops := opCounts(tr)
	if ops[model.OpAllToAll] != 40 || ops[model.OpAllReduce] != 24 || len(ops) != 2 {
		t.Errorf("ops %v", ops)
	}
	if got := iterSet(tr); !slices.Equal(got, []int32{10}) {
		t.Errorf("iterations %v", got)
	}
	for _, r := range tr.Ranks {
		if r.GPUName != "Tesla V100-SXM2-32GB" || r.LocalGPU != r.Rank {
			t.Errorf("rank %+v", r)
		}
	}
}

// trace_filter: 2 of 128 ranks, steps #551-552 (HTA: iterations {551} after
// dropping the last).
func TestOracleTraceFilter(t *testing.T) {
	tr := readSet(t, "hta_trace_filter_2rank")
	if len(tr.Ranks) != 2 || tr.Ranks[1].Rank != 1 {
		t.Fatalf("ranks %+v", tr.Ranks)
	}
	if got := iterSet(tr); !slices.Equal(got, []int32{551, 552}) {
		t.Errorf("iterations %v", got)
	}
}

func TestSniff(t *testing.T) {
	for name, files := range traceSets(t) {
		for _, f := range files {
			head := readHeadForTest(t, f)
			if !Sniff(f, head) {
				t.Errorf("%s/%s not recognised", name, filepath.Base(f))
			}
		}
	}
	for _, not := range []string{`[{"name": "Group API", "cat": "GROUP_API", "ph": "b"}]`, "hello", `{"a": 1}`, ""} {
		if Sniff("x.json", []byte(not)) {
			t.Errorf("Sniff accepted %q", not)
		}
	}
}

func readHeadForTest(t *testing.T, path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, _, err := openStream(&countReader{r: f, prog: &progress{}}, 0, new(scratch))
	if err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 4096)
	n, _ := r.Read(head)
	return head[:n]
}
