// Package inspector reads the JSON lines of NCCL's Inspector plugin
// (formats v4.0–v4.3): communicators by commHash, their names and members,
// and, from verbose records (event_trace_ts), timed collectives on the
// host wall clock in a Fallback trace. Format is its entry in the registry
// of package ingest; docs/nccl.md describes the rules.
package inspector
