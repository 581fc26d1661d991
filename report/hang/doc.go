// Package hang writes what analysis/hang found (a result.Hang): the
// culprit table in the layout of NVIDIA's nvidia-resiliency-ext Flight
// Recorder attribution, the ranks without a usable dump, every group's
// first disagreements, and the JSON form of `tpptrace hang --json`.
package hang
