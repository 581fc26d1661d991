package ingest

import (
	"slices"
	"sync"

	"github.com/tpptrace/tpptrace/model"
)

// snapshotParallel is the events from which snapshot clones the event
// columns on goroutines of their own beside the tables: the copies are
// mostly first touches of new pages (10–15 ms of a cold run of 524 k
// events, on one core while the other has nothing to do).
const snapshotParallel = 1 << 16

// snapshot copies what analysis changes in a trace (ranks' coordinates,
// communicators, names it interns, collectives it assigns, iterations and
// microbatches), sharing the columns it only reads, so that the cache can
// be written from the copy while the trace is analysed.
func snapshot(t *model.Trace) *model.Trace {
	s := *t
	ev, c := &s.Events, &s.Colls
	parts := []func(){
		func() {
			ev.Iter, ev.Micro, ev.Coll = slices.Clone(ev.Iter), slices.Clone(ev.Micro), slices.Clone(ev.Coll)
		},
		func() {
			ev.Kind, ev.Stream = slices.Clone(ev.Kind), slices.Clone(ev.Stream)
			c.Op, c.Bytes, c.DType, c.Comm = slices.Clone(c.Op), slices.Clone(c.Bytes), slices.Clone(c.DType), slices.Clone(c.Comm)
			c.Seq, c.Peer, c.GroupSize = slices.Clone(c.Seq), slices.Clone(c.Peer), slices.Clone(c.GroupSize)
		},
	}
	var wg sync.WaitGroup
	for _, p := range parts {
		if t.Events.Len() < snapshotParallel {
			p()
		} else {
			wg.Go(p)
		}
	}
	snapshotTables(&s, t)
	wg.Wait()
	return &s
}

// snapshotTables copies the tables of t that analysis changes into s.
func snapshotTables(s, t *model.Trace) {
	s.Ranks = slices.Clone(t.Ranks)
	s.Streams = slices.Clone(t.Streams)
	s.Comms = slices.Clone(t.Comms)
	for i := range s.Comms {
		s.Comms[i].Members = slices.Clone(s.Comms[i].Members)
	}
	s.Names = model.Strings{}
	for _, n := range t.Names.All()[1:] {
		s.Names.Intern(n)
	}
	s.Sources, s.Skipped = slices.Clone(t.Sources), slices.Clone(t.Skipped)
	s.World, s.Absent = slices.Clone(t.World), slices.Clone(t.Absent)
}
