package inspector

// InspectorTimes are a verbose Inspector record's event_trace_ts, host
// wall-clock µs (gettimeofday): the operation's start and stop as the
// plugin saw them (coll_start_ts/coll_stop_ts, p2p_start_ts/p2p_stop_ts:
// enqueue to completion on the CPU) and the span of its kernel channels
// (earliest kernel_start_ts, latest kernel_stop_ts). Fields are 0 when
// absent or unobserved.
type InspectorTimes struct {
	OpStartUs, OpStopUs         int64
	KernelStartUs, KernelStopUs int64
}

// inspectorTS is the event_trace_ts object of a verbose record.
type inspectorTS struct {
	CollStart int64 `json:"coll_start_ts"`
	CollStop  int64 `json:"coll_stop_ts"`
	P2PStart  int64 `json:"p2p_start_ts"`
	P2PStop   int64 `json:"p2p_stop_ts"`
	Kernels   []struct {
		Start int64 `json:"kernel_start_ts"`
		Stop  int64 `json:"kernel_stop_ts"`
	} `json:"kernel_events"`
}

// times reads ts, else outer (event_trace_ts written beside the payload
// object rather than inside it); nil gives zero times.
func (ts *inspectorTS) times(outer *inspectorTS) InspectorTimes {
	if ts == nil {
		ts = outer
	}
	if ts == nil {
		return InspectorTimes{}
	}
	t := InspectorTimes{OpStartUs: max(ts.CollStart, ts.P2PStart), OpStopUs: max(ts.CollStop, ts.P2PStop)}
	for _, k := range ts.Kernels {
		if k.Start > 0 && (t.KernelStartUs == 0 || k.Start < t.KernelStartUs) {
			t.KernelStartUs = k.Start
		}
		t.KernelStopUs = max(t.KernelStopUs, k.Stop)
	}
	return t
}

// maxUs bounds the timestamps read (µs, year 2255): ns stay in an int64.
const maxUs = 9e15

// maxDurNs is the longest kernel kept: a week, the longest event the model
// accepts.
const maxDurNs = 7 * 24 * 3600 * 1e9

// Span is the record's kernel on the host wall clock, epoch ns: it ends at
// the last channel's kernel_stop_ts and lasts coll_exec_time_us (the GPU
// kernel time, which the µs stamps cannot resolve), else the kernel span;
// without kernel events, it starts at the operation's start stamp. ok is
// false for non-verbose records (no timestamp) and unusable stamps (beyond
// 2255, a stop before the start, longer than a week).
func (r InspectorRecord) Span() (startNs, durNs int64, ok bool) {
	t := r.Times
	if max(t.OpStartUs, t.OpStopUs, t.KernelStartUs, t.KernelStopUs) >= maxUs || !(r.ExecUs >= 0 && r.ExecUs < 1e12) {
		return 0, 0, false
	}
	exec := int64(r.ExecUs*1e3 + 0.5)
	switch {
	case t.KernelStopUs > 0:
		durNs = cmpOrZero(exec, (t.KernelStopUs-t.KernelStartUs)*1e3, t.KernelStartUs > 0)
		startNs = t.KernelStopUs*1e3 - durNs
	case t.OpStartUs > 0:
		durNs = cmpOrZero(exec, (t.OpStopUs-t.OpStartUs)*1e3, t.OpStopUs > 0)
		startNs = t.OpStartUs * 1e3
	default:
		return 0, 0, false
	}
	return startNs, durNs, durNs >= 0 && durNs <= maxDurNs && startNs > 0
}

// cmpOrZero is a when positive, else b when valid, else 0.
func cmpOrZero(a, b int64, valid bool) int64 {
	if a > 0 {
		return a
	}
	if valid {
		return b
	}
	return 0
}
