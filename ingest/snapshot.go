package ingest

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// snapshot copies what analysis changes in a trace (ranks' coordinates,
// communicators, names it interns, collectives it assigns, iterations and
// microbatches), sharing the columns it only reads, so that the cache can
// be written from the copy while the trace is analysed.
func snapshot(t *model.Trace) *model.Trace {
	s := *t
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
	ev := &s.Events
	ev.Iter, ev.Micro, ev.Coll = slices.Clone(ev.Iter), slices.Clone(ev.Micro), slices.Clone(ev.Coll)
	ev.Kind, ev.Stream = slices.Clone(ev.Kind), slices.Clone(ev.Stream)
	c := &s.Colls
	c.Op, c.Bytes, c.DType, c.Comm = slices.Clone(c.Op), slices.Clone(c.Bytes), slices.Clone(c.DType), slices.Clone(c.Comm)
	c.Seq, c.Peer, c.GroupSize = slices.Clone(c.Seq), slices.Clone(c.Peer), slices.Clone(c.GroupSize)
	s.Sources, s.Skipped = slices.Clone(t.Sources), slices.Clone(t.Skipped)
	s.World, s.Absent = slices.Clone(t.World), slices.Clone(t.Absent)
	return &s
}
