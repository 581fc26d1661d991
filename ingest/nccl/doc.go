// Package nccl is what the NCCL decoders share: the job-wide key of a
// communicator (HashKey), the axis its name states (CommAxis), the ranks
// and communicators that per-process views make (ViewsTrace), and the
// bounded line reader (EachLine), which checks the memory budget as it
// goes. The decoders are its sub-packages: ncclog (NCCL_DEBUG=INFO logs),
// inspector (NCCL Inspector JSON lines) and profiler (the example profiler
// plugin's traces); ingest/flightrec reads PyTorch Flight Recorder dumps.
// docs/nccl.md describes the formats, versions and rules.
package nccl
