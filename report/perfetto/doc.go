// Package perfetto exports a job as a Chrome/Perfetto JSON trace that opens
// in ui.perfetto.dev or chrome://tracing: one process per rank, one thread
// per stream or CPU thread, every event on the aligned clock (each rank's
// time minus its clock offset from the Result), the Result's classified
// step (compute, exposed and overlapped communication, bubbles) as slices
// on an extra track per rank, and the findings as instant annotations.
//
// The writer streams: memory stays flat however many events the trace has.
package perfetto
