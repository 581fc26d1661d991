package model

import (
	"fmt"
	"slices"
)

// DuplicateRankError says that two sources claim the same global rank.
type DuplicateRankError struct {
	Rank   int32
	First  string
	Second string
}

func (e *DuplicateRankError) Error() string {
	return fmt.Sprintf("rank %d is claimed by both %s and %s", e.Rank, e.First, e.Second)
}

// Merge combines traces (typically one per rank file) into one, remapping
// string, stream, communicator, collective and source indices, sorts the
// events and links kernels to their launches (Events.Link). Two inputs holding events of the same rank give a
// *DuplicateRankError naming both sources; inputs that only describe a rank
// (an NCCL log naming its host, say) fill in the fields still unknown.
// Communicators with equal IDs are unioned, equal World declarations
// counted together and Absent members unioned per communicator. The events
// of a Fallback part are kept only for ranks no other part has events of
// (the first Fallback part holding a rank wins); the rest of a Fallback
// part is merged as usual.
//
// A merge whose only part with more than skip records is itself Merge's
// output, unchanged in size since (normal), returns that part with the
// other parts' skip records appended, without copying: merging it again
// would give the same trace.
func Merge(parts ...*Trace) (*Trace, error) { return merge(parts, false) }

// MergeOwned is Merge for parts the caller no longer needs: it takes their
// events, releasing each event column of every part once it is copied, so
// that the merge holds the job's events once plus one column rather than
// twice. The parts' Events are empty afterwards; the result equals Merge's.
func MergeOwned(parts ...*Trace) (*Trace, error) { return merge(parts, true) }

func merge(parts []*Trace, owned bool) (*Trace, error) {
	if p := soleNormalPart(parts); p != nil {
		for _, q := range parts {
			if q != p {
				p.Skipped = append(p.Skipped, q.Skipped...)
			}
		}
		p.merged = markOf(p)
		if !p.Events.Linked() {
			p.Events.Link()
		}
		return p, nil
	}
	out := &Trace{}
	owner := map[int32]string{}
	for _, p := range parts {
		if p.Fallback {
			continue
		}
		if err := checkOwners(p, owner); err != nil {
			return nil, err
		}
	}
	evs := make([]*Events, 0, len(parts))
	runs := make([]int, 0, len(parts)+1)
	n := 0
	for _, p := range parts {
		var drop map[int32]bool
		if p.Fallback {
			drop = claimFallback(p, owner)
			out.skipDropped(p, drop)
		}
		runs = append(runs, n)
		ev := out.appendTrace(p, drop, owned)
		evs = append(evs, ev)
		n += ev.Len()
	}
	if ordered, ok := rankOrder(evs); ok {
		out.Events = ConcatEvents(ordered, owned)
	} else {
		out.Events = ConcatEvents(evs, owned)
		out.Events.sortRuns(append(runs, n))
	}
	out.Counters.Sort()
	out.Events.Link()
	out.merged = markOf(out)
	return out, nil
}

// claimFallback returns the ranks of a Fallback part whose events another
// part already holds, and claims the others.
func claimFallback(p *Trace, owner map[int32]string) map[int32]bool {
	drop := map[int32]bool{}
	for _, r := range p.Events.Rank {
		if _, ok := owner[r]; ok {
			drop[r] = true
		}
	}
	for _, r := range p.Events.Rank {
		if !drop[r] {
			owner[r] = "fallback"
		}
	}
	return drop
}

// skipDropped records the fallback events that a timeline made redundant.
func (t *Trace) skipDropped(p *Trace, drop map[int32]bool) {
	n := int64(0)
	for _, r := range p.Events.Rank {
		if drop[r] {
			n++
		}
	}
	if n == 0 {
		return
	}
	src := ""
	if len(p.Sources) > 0 {
		src = p.Sources[0].Path
	}
	t.Skipped = append(t.Skipped, Skip{Source: src, Offset: -1, Count: n,
		Reason: fmt.Sprintf("collective timings of %d rank(s) not used: a trace of those ranks is loaded", len(drop))})
}

func checkOwners(p *Trace, owner map[int32]string) error {
	src := "(unnamed)"
	if len(p.Sources) > 0 {
		src = p.Sources[0].Path
	}
	claimed := map[int32]bool{}
	for i, r := range p.Events.Rank {
		if i == 0 || r != p.Events.Rank[i-1] { // a rank's rows mostly follow each other
			claimed[r] = true
		}
	}
	for r := range claimed {
		if prev, ok := owner[r]; ok {
			return &DuplicateRankError{Rank: r, First: prev, Second: src}
		}
	}
	for r := range claimed {
		owner[r] = src
	}
	return nil
}

// appendTrace adds everything of p but its events to t and returns p's
// events with their indices remapped to t's, for ConcatEvents: p's own
// columns when owned, else copies of the remapped ones.
func (t *Trace) appendTrace(p *Trace, drop map[int32]bool, owned bool) *Events {
	srcBase := int32(len(t.Sources))
	t.Sources = append(t.Sources, p.Sources...)
	t.Skipped = append(t.Skipped, p.Skipped...)
	for _, d := range p.World {
		t.DeclareWorld(d.Size, d.By, d.Count)
	}
	for _, a := range p.Absent {
		t.AddAbsent(a.Comm, a.Ranks)
	}
	for _, r := range p.Ranks {
		if r.Source >= 0 {
			r.Source += srcBase
		}
		t.mergeRank(r)
	}
	names := remapNames(&t.Names, &p.Names)
	streams := make([]int32, len(p.Streams))
	for i, s := range p.Streams {
		streams[i] = t.AddStream(s)
	}
	comms := make([]int32, len(p.Comms))
	for i, c := range p.Comms {
		comms[i] = t.AddComm(c)
	}
	colls := t.appendColls(&p.Colls, names, comms)
	t.appendSamples(p)
	t.appendCounters(&p.Counters, names, drop)
	return remapEvents(&p.Events, names, streams, colls, drop, owned)
}

func (t *Trace) appendCounters(c *Counters, names []int32, drop map[int32]bool) {
	for i := 0; i < c.Len(); i++ {
		x := c.At(i)
		if drop[x.Rank] {
			continue
		}
		x.Name = max(remap(names, x.Name), 0)
		t.Counters.Append(x)
	}
}

func remapNames(dst, src *Strings) []int32 {
	all := src.All()
	m := make([]int32, len(all))
	for i, s := range all {
		m[i] = dst.Intern(s)
	}
	return m
}

func remap(m []int32, i int32) int32 {
	if i < 0 || int(i) >= len(m) {
		return -1
	}
	return m[i]
}

func (t *Trace) appendColls(c *Collectives, names, comms []int32) []int32 {
	m := make([]int32, c.Len())
	for i := range m {
		x := c.At(i)
		x.DType = max(remap(names, x.DType), 0)
		x.Comm = remap(comms, x.Comm)
		m[i] = t.Colls.Append(x)
	}
	return m
}

// remapEvents returns ev with its name, stream and collective indices
// remapped and the rows of dropped ranks left out. Unless owned, ev is left
// as it is: the result shares its other columns.
func remapEvents(ev *Events, names, streams, colls []int32, drop map[int32]bool, owned bool) *Events {
	switch {
	case len(drop) > 0:
		ev, owned = ev.without(drop), true
	case !owned:
		c := *ev
		c.Name, c.Stream, c.Coll = slices.Clone(ev.Name), slices.Clone(ev.Stream), slices.Clone(ev.Coll)
		ev = &c
	}
	for i := range ev.Name {
		ev.Name[i] = max(remap(names, ev.Name[i]), 0)
		ev.Stream[i] = remap(streams, ev.Stream[i])
		ev.Coll[i] = remap(colls, ev.Coll[i])
	}
	return ev
}

// without returns a copy of ev without the rows of the dropped ranks.
func (ev *Events) without(drop map[int32]bool) *Events {
	out := &Events{}
	for i := 0; i < ev.Len(); i++ {
		if !drop[ev.Rank[i]] {
			out.Append(ev.At(i))
		}
	}
	return out
}

// appendSamples adds p's sampled GPUs, each GPU's identity once (a GPU of
// the same host, index, UUID and bus id is the GPU already there), and its
// samples.
func (t *Trace) appendSamples(p *Trace) {
	if len(p.SampleGPUs) == 0 && p.Samples.Len() == 0 {
		return
	}
	type key struct {
		host, uuid, bus string
		index           int32
	}
	have := make(map[key]int32, len(t.SampleGPUs))
	for i, g := range t.SampleGPUs {
		have[key{g.Host, g.UUID, g.BusID, g.Index}] = int32(i)
	}
	ids := make([]int32, len(p.SampleGPUs))
	for i, g := range p.SampleGPUs {
		k := key{g.Host, g.UUID, g.BusID, g.Index}
		id, ok := have[k]
		if !ok {
			id, have[k] = int32(len(t.SampleGPUs)), int32(len(t.SampleGPUs))
			t.SampleGPUs = append(t.SampleGPUs, g)
		}
		ids[i] = id
	}
	t.appendSampleRows(&p.Samples, ids)
}

func (t *Trace) appendSampleRows(s *Samples, ids []int32) {
	if t.Samples.Len() == 0 && identity(ids) {
		t.Samples = s.clone()
		t.Samples.Sort()
		return
	}
	for i := range s.Len() {
		x := s.At(i)
		if x.GPU >= 0 && int(x.GPU) < len(ids) {
			x.GPU = ids[x.GPU]
		}
		t.Samples.Append(x)
	}
	t.Samples.Sort()
}

// identity reports whether ids maps every index to itself.
func identity(ids []int32) bool {
	for i, id := range ids {
		if id != int32(i) {
			return false
		}
	}
	return true
}

// mergeRank adds r, or fills the unknown fields of the rank already present.
func (t *Trace) mergeRank(r Rank) {
	i := t.FindRank(r.Rank)
	if i < 0 {
		t.AddRank(r)
		return
	}
	x := &t.Ranks[i]
	x.Host, x.GPUName = cmpOr(x.Host, r.Host), cmpOr(x.GPUName, r.GPUName)
	x.GPUUUID, x.BusID = cmpOr(x.GPUUUID, r.GPUUUID), cmpOr(x.BusID, r.BusID)
	if x.PID == 0 {
		x.PID = r.PID
	}
	if x.LocalGPU < 0 {
		x.LocalGPU = r.LocalGPU
	}
	if x.Source < 0 {
		x.Source = r.Source
	}
	if x.ClockBase == 0 {
		x.ClockBase = r.ClockBase
	}
	x.Coord = fillCoord(x.Coord, r.Coord)
}

func fillCoord(a, b Coord) Coord {
	pick := func(x, y int32) int32 {
		if x < 0 {
			return y
		}
		return x
	}
	return Coord{pick(a.TP, b.TP), pick(a.PP, b.PP), pick(a.DP, b.DP), pick(a.CP, b.CP), pick(a.EP, b.EP)}
}
