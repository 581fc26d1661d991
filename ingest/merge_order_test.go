package ingest_test

import (
	"context"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestLoadOrderIsSortOrder checks that the one merge of sorted per-rank
// parts gives exactly the order the plain stable sort gives (the reference
// path: sort the merged events again), and that reading the files one at a
// time gives the same trace as reading them in parallel.
func TestLoadOrderIsSortOrder(t *testing.T) {
	for _, name := range []string{"default", "p2p-nometa", "moe-ep4", "cut-last-step"} {
		t.Run(name, func(t *testing.T) {
			dir := sampletest.KinetoDir(t, sampletest.Job(t, name))
			par := load(t, dir, source.Options{})
			ref := clone(&par.Events)
			ref.Sort()
			if !equalEvents(&par.Events, ref) {
				t.Fatal("the merged events are not in Sort's order")
			}
			seq := load(t, dir, source.Options{Workers: 1})
			if !equalEvents(&par.Events, &seq.Events) || !slices.Equal(par.Names.All(), seq.Names.All()) {
				t.Fatal("one worker and many give different traces")
			}
		})
	}
}

func load(t *testing.T, dir string, opts source.Options) *model.Trace {
	t.Helper()
	tr, err := ingest.Load(context.Background(), []string{dir}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func clone(ev *model.Events) *model.Events {
	out := &model.Events{}
	for i := 0; i < ev.Len(); i++ {
		out.Append(ev.At(i))
	}
	return out
}

func equalEvents(a, b *model.Events) bool {
	return slices.Equal(a.Rank, b.Rank) && slices.Equal(a.Start, b.Start) && slices.Equal(a.Dur, b.Dur) &&
		slices.Equal(a.Kind, b.Kind) && slices.Equal(a.Name, b.Name) && slices.Equal(a.Stream, b.Stream) &&
		slices.Equal(a.Corr, b.Corr) && slices.Equal(a.Iter, b.Iter) && slices.Equal(a.Micro, b.Micro) &&
		slices.Equal(a.Coll, b.Coll)
}
