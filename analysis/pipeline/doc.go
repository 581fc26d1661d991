// Package pipeline recovers the pipeline-parallel structure of a job from
// its trace: the forward and backward passes of each microbatch on each
// stage (from per-microbatch annotations such as forward_step#3, else from
// the directions of the pipeline send/recv kernels), the schedule (GPipe,
// 1F1B, interleaved 1F1B), the number of microbatches m and virtual stages
// v, the ideal bubble fraction and the split of a measured bubble into
// fill/drain and steady state.
package pipeline
