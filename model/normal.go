package model

import "unsafe"

// mergeMark records the sizes (and where the events live) of a trace that
// Merge returned: while they hold, the trace is taken to be still in
// Merge's normal form (sorted events, interned names, distinct streams,
// communicators and world declarations), so that merging it alone again
// can return it as it is. Code that edits a merged trace in place and
// then merges it again must not rely on this; within ingest, the edits
// after a merge (trimming communicator members, adding skip records and
// absent members) keep the form.
type mergeMark struct {
	events, names, streams, comms, colls, counters, samples, ranks int
	start                                                          unsafe.Pointer
	ok                                                             bool
}

func markOf(t *Trace) mergeMark {
	return mergeMark{t.Events.Len(), t.Names.Len(), len(t.Streams), len(t.Comms), t.Colls.Len(), t.Counters.Len(),
		t.Samples.Len(), len(t.Ranks), unsafe.Pointer(unsafe.SliceData(t.Events.Start)), true}
}

// normal reports whether t is a Merge output not grown since.
func (t *Trace) normal() bool { return t.merged.ok && t.merged == markOf(t) && !t.Fallback }

// soleNormalPart returns the one part that holds more than skip records,
// when it is normal; nil otherwise.
func soleNormalPart(parts []*Trace) *Trace {
	var sole *Trace
	for _, p := range parts {
		if p.onlySkips() {
			continue
		}
		if sole != nil {
			return nil
		}
		sole = p
	}
	if sole == nil || !sole.normal() {
		return nil
	}
	return sole
}

// onlySkips reports whether t holds nothing but skip records.
func (t *Trace) onlySkips() bool {
	return t.Events.Len() == 0 && len(t.Ranks) == 0 && len(t.Streams) == 0 && len(t.Comms) == 0 && t.Colls.Len() == 0 &&
		t.Counters.Len() == 0 && t.Samples.Len() == 0 && len(t.SampleGPUs) == 0 && len(t.Sources) == 0 &&
		len(t.World) == 0 && len(t.Absent) == 0 && t.Names.Len() <= 1
}
