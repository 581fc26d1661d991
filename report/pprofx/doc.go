// Package pprofx turns a Result into a pprof profile, so that
// `go tool pprof -http` shows a flame graph of where a job's step time
// goes and `-diff_base` compares two runs.
//
// Each sample is time of the Result's representative step (its Timeline),
// attributed along the stack rank → stage → phase → category → kernel, with
// string labels rank, stage, phase and axis. Kernel leaves come from the
// trace when one is given: a segment's time is shared among the kernels of
// its kind that overlap it, in proportion to the overlap. Without a
// Timeline, the per-rank averages of the Result are used, with no phase.
//
// Select one rank with -tagfocus='rank=^3$' (a bare number is read as a
// range by pprof and matches nothing).
package pprofx
