package nsys

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/nsysw"
)

func writeAndRead(t *testing.T, tr *model.Trace, wo nsysw.Options, ro source.Options) (*model.Trace, []string) {
	t.Helper()
	paths, err := nsysw.Write(t.TempDir(), tr, wo)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(context.Background(), paths, ro)
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Validate(); err != nil {
		t.Fatalf("invalid trace: %v", err)
	}
	return got, paths
}

// gpuKey describes a GPU event independently of string and stream indices.
// Times are relative to the trace's first GPU event: a reader may choose
// another time zero (ClockBase), not other durations or offsets.
func gpuKeys(tr *model.Trace) []string {
	var out []string
	t0 := firstGPU(tr)
	for i := 0; i < tr.Events.Len(); i++ {
		e := tr.Events.At(i)
		if !e.Kind.OnGPU() {
			continue
		}
		s := tr.Streams[e.Stream]
		k := fmt.Sprintf("r%d %s %q %d+%d s%d d%d", e.Rank, e.Kind, tr.Name(i), e.Start-t0, e.Dur, s.ID, s.Device)
		if e.Coll >= 0 {
			c := tr.Colls.At(int(e.Coll))
			k += fmt.Sprintf(" %s %dB peer%d members%v", c.Op, c.Bytes, c.Peer, tr.Comms[c.Comm].Members)
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func firstGPU(tr *model.Trace) int64 {
	t0 := int64(1 << 62)
	for i := 0; i < tr.Events.Len(); i++ {
		if tr.Events.Kind[i].OnGPU() {
			t0 = min(t0, tr.Events.Start[i])
		}
	}
	return t0
}

func TestRoundTripLayouts(t *testing.T) {
	want := tinyJob()
	for _, perNode := range []bool{false, true} {
		t.Run(fmt.Sprintf("perNode=%v", perNode), func(t *testing.T) {
			got, paths := writeAndRead(t, want, nsysw.Options{PerNode: perNode}, source.Options{})
			if n := map[bool]int{false: 4, true: 2}[perNode]; len(paths) != n {
				t.Fatalf("%d files, want %d", len(paths), n)
			}
			if g, w := gpuKeys(got), gpuKeys(want); !slices.Equal(g, w) {
				t.Fatalf("GPU events differ:\n got %q\nwant %q", g, w)
			}
			checkRanks(t, got, want)
			if g, w := got.Ranks[0].ClockBase+firstGPU(got), want.Ranks[0].ClockBase+firstGPU(want); g != w {
				t.Errorf("wall clock of the first GPU event: got %d, want %d", g, w)
			}
			checkSteps(t, got)
		})
	}
}

func checkRanks(t *testing.T, got, want *model.Trace) {
	t.Helper()
	if len(got.Ranks) != len(want.Ranks) {
		t.Fatalf("ranks: %+v", got.Ranks)
	}
	for i, r := range got.Ranks {
		w := want.Ranks[i]
		if r.Rank != w.Rank || r.Host != w.Host || r.PID != w.PID || r.LocalGPU != w.LocalGPU || r.GPUName == "" {
			t.Errorf("rank %d: got %+v, want %+v", i, r, w)
		}
	}
	for i := 0; i < got.Colls.Len(); i++ {
		if c := got.Colls.At(i); c.GroupSize != 2 || c.Comm < 0 {
			t.Errorf("collective %d: %+v", i, c)
		}
	}
}

func checkSteps(t *testing.T, got *model.Trace) {
	t.Helper()
	n := 0
	for i := 0; i < got.Events.Len(); i++ {
		if strings.HasPrefix(got.Name(i), "ProfilerStep#") && got.Events.Kind[i] == model.KindAnnotation {
			n++
		}
	}
	if n != 8 {
		t.Errorf("%d ProfilerStep ranges, want 8", n)
	}
}

func TestPrivacyOnlyRankVariables(t *testing.T) {
	got, _ := writeAndRead(t, tinyJob(), nsysw.Options{}, source.Options{})
	all := strings.Join(got.Names.All(), "\n") + fmt.Sprintf("%+v %+v %+v %+v", got.Ranks, got.Sources, got.Skipped, got.Comms)
	if strings.Contains(all, "do-not-copy") || strings.Contains(all, "SECRET_TOKEN") {
		t.Fatal("the captured environment leaked into the trace")
	}
}

func TestOldNCCLWithoutCommID(t *testing.T) {
	var warns []string
	got, _ := writeAndRead(t, tinyJob(), nsysw.Options{NoCommID: true}, source.Options{Warn: func(s string) { warns = append(warns, s) }})
	for i := 0; i < got.Colls.Len(); i++ {
		if c := got.Colls.At(i); c.Comm != -1 || c.Bytes <= 0 {
			t.Fatalf("collective %d: %+v, want bytes but no communicator", i, c)
		}
	}
	if !skipped(got, "NCCL < 2.25") || len(warns) == 0 {
		t.Fatalf("no note of the fallback: skipped %+v, warnings %q", got.Skipped, warns)
	}
}

func TestKernelsWithoutNVTX(t *testing.T) {
	got, _ := writeAndRead(t, tinyJob(), nsysw.Options{NoNVTX: true}, source.Options{})
	if n := got.CountByKind()[model.KindAnnotation]; n != 0 {
		t.Fatalf("%d annotations without NVTX", n)
	}
	ops := map[model.Op]int{}
	for i := 0; i < got.Colls.Len(); i++ {
		ops[got.Colls.Op[i]]++
	}
	if ops[model.OpAllReduce] != 8 || ops[model.OpSendRecv] != 8 {
		t.Fatalf("ops from kernel names: %v", ops)
	}
	if !skipped(got, "no NCCL NVTX ranges") {
		t.Fatalf("skipped: %+v", got.Skipped)
	}
}

func skipped(tr *model.Trace, substr string) bool {
	for _, s := range tr.Skipped {
		if strings.Contains(s.Reason, substr) {
			return true
		}
	}
	return false
}

// TestWorldDeclaredWithoutARank: three of four per-rank reports each
// declare the job's 4 ranks, through WORLD_SIZE and through the world
// communicator's "No. of ranks"; per node, the one report left does too.
func TestWorldDeclaredWithoutARank(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(context.Background(), paths[:3], source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.WorldDecl{{Size: 4, By: model.WorldByNCCL, Count: 3}, {Size: 4, By: model.WorldByEnv, Count: 3}}
	if !slices.Equal(got.World, want) || got.DeclaredWorld() != 4 {
		t.Errorf("per rank: World = %+v, want %+v", got.World, want)
	}
	paths, err = nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{PerNode: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err = Read(context.Background(), paths[:1], source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want = []model.WorldDecl{{Size: 4, By: model.WorldByNCCL, Count: 1}, {Size: 4, By: model.WorldByEnv, Count: 1}}
	if !slices.Equal(got.World, want) || len(got.Ranks) != 2 {
		t.Errorf("per node: %d ranks, World = %+v, want %+v", len(got.Ranks), got.World, want)
	}
}
