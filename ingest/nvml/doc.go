// Package nvml samples NVIDIA GPUs through NVML while a training job runs,
// writes the samples as Parquet, and reads such files back into the model
// (model.Trace.SampleGPUs and Samples) so that analysis can join them to
// the ranks of a trace.
//
// The live sampler (go-nvml, cgo) is ingest/nvml/live, which only the
// command imports and which is built with the nvml tag; this package needs
// no cgo. Without a driver, live.OpenSystem returns ErrNoDriver: NVML's
// Init failed, and nothing else of NVML is called afterwards (a call after
// a failed Init kills the process in the dynamic loader).
//
// Samples are written incrementally: every flush interval the rows gathered
// so far become one complete Parquet file in "<out>.parts/", so a killed
// sampler loses at most one interval; on a clean stop the parts are joined
// into <out> and the parts directory is removed. Readers accept both.
package nvml
