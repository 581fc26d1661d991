package model

// OpTable is a per-worker operation table of a pipeline-parallel job, the
// input of the what-if replay (the `trace-*.parquet` form published with
// the OSDI '25 straggler study, and tables users make the same way). One
// row is one operation of one worker (one rank per DP replica and pipeline
// stage); the columns are parallel slices, one entry per row.
//
// Start and Dur are seconds relative to the row's step (the earliest
// operation of a step starts at 0); a communication's duration includes its
// wait. OpType indexes OpTypes.
type OpTable struct {
	OpTypes []string // optype names, e.g. "forward-compute", "grads-reduce-scatter"

	DP     []int32   // DP replica of the worker
	Stage  []int32   // pipeline stage of the worker
	Rank   []int32   // global rank of the worker
	Step   []int64   // training step
	OpType []int32   // index into OpTypes
	Start  []float64 // seconds from the step's start
	Dur    []float64 // seconds
	Seq    []int32   // ordinal among same-optype ops of the worker in the step, by start
	MC     []int32   // model chunk within the stage, -1 when not applicable
	GMC    []int32   // global model chunk, -1 when not applicable
	MB     []int32   // microbatch of a forward/backward compute, -1 elsewhere
}

// Len is the number of rows.
func (t *OpTable) Len() int { return len(t.OpType) }

// OpTypeID returns the index of name in OpTypes, adding it when absent.
func (t *OpTable) OpTypeID(name string) int32 {
	for i, n := range t.OpTypes {
		if n == name {
			return int32(i)
		}
	}
	t.OpTypes = append(t.OpTypes, name)
	return int32(len(t.OpTypes) - 1)
}
