// Package profiler reads the traces of NCCL's example profiler plugin (one
// Chrome-trace event per line, repaired where NCCL 2.28–2.29 print bare
// values): the communicators COLL and P2P events name by CommHash, and
// their members. Format is its entry in the registry of package ingest;
// docs/nccl.md describes the rules.
package profiler
