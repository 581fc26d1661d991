// Package nccl reads what NCCL and PyTorch's NCCL process groups leave
// behind: NCCL_DEBUG=INFO logs, NCCL Inspector JSON lines, traces of NCCL's
// example profiler plugin, and PyTorch Flight Recorder dumps. The first three
// describe ranks (host, GPU, bus id) and communicators; Flight Recorder
// dumps, read by ReadDump, feed Diagnose, which finds the first collective
// where the ranks of each process group disagree and names the ranks that
// hang the job. CommAxis reads the axis a communicator's name states; the
// placement checks live in analysis/layout, which sees only the model.
// docs/nccl.md describes the formats, versions and rules.
package nccl
