// Package ncclog reads NCCL_DEBUG=INFO logs: the ranks (host, process,
// GPU, bus id) and communicators their Init, nNodes and COLL lines
// describe, and PyTorch's ProcessGroupNCCL lines that name the process
// group behind a communicator. Format is its entry in the registry of
// package ingest; docs/nccl.md describes the versions and rules.
package ncclog
