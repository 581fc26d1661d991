package kineto

import "github.com/tpptrace/tpptrace/model"

// memoryName is the name of the allocator instants Kineto writes with
// profile_memory=True: {"ph": "i", "cat": "cpu_instant_event", "name":
// "[memory]", "args": {"Device Type": 1, "Device Id": 0, "Addr": ...,
// "Bytes": ..., "Total Allocated": ..., "Total Reserved": ...}}.
const memoryName = "[memory]"

// instant handles an "i" event: GPU [memory] instants become counter
// samples of the allocator's levels; host ones (Device Id -1) and other
// instants are counted as skipped.
func (f *fileReader) instant(off int64) {
	a := &f.ev.Args
	if f.ev.Name != memoryName {
		if !ownInstant(f.ev.Name) {
			f.skip(categoryReason(f.ev.Cat, f.ev.Ph), -1)
		}
		return
	}
	if a.DevID < 0 || a.Allocated < 0 {
		f.skip("[memory] events of host memory are not used", -1)
		return
	}
	ts, sub, err := f.ev.Ts.micros()
	if !f.ev.Ts.set || err != nil {
		f.skipDetail("[memory] event without a usable ts", string(f.ev.Ts.b), off)
		return
	}
	t, _ := span(ts, sub, 0, 0)
	f.counter(model.CounterMemAllocated, t, a.Allocated)
	if a.Reserved >= 0 {
		f.counter(model.CounterMemReserved, t, a.Reserved)
	}
}

// counter appends a sample; the rank is set when the file is finished.
func (f *fileReader) counter(name string, t, v int64) {
	f.tr.Counters.Append(model.Counter{Rank: -1, Name: f.tr.Names.Intern(name), Time: t, Value: v})
}
