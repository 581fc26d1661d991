// Package flightrec reads PyTorch's NCCL Flight Recorder dumps, one per
// rank, pickle (decoded by the restricted ./pickle, which executes
// nothing) or JSON, into model.FRDump values that analysis/hang matches
// across ranks. As a registry Format it reads the ranks and process groups
// and, from timed entries (TORCH_NCCL_ENABLE_TIMING=1), collectives in a
// Fallback trace. docs/nccl.md describes the format and versions.
package flightrec
