// Package optable decodes per-worker operation tables (`trace-*.parquet`,
// the op-table form of the OSDI '25 straggler study: one row per operation
// of one worker, with its step, optype, start and duration in seconds
// relative to the step) into a model.OpTable. It only decodes; the what-if
// replay (analysis/whatif) reads the model.
package optable
