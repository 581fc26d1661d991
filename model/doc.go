// Package model is the normalized trace model every other tpptrace package
// shares: ranks, GPU streams, events, collectives, communicators and GPU
// samples of one distributed training job.
//
// It sits at the bottom of the import graph and imports only the standard
// library, like pprof's profile package. Ingesters (ingest/<format>) fill a
// Trace; the dataset package stores it as Parquet; analyzers read it.
//
// Events are stored column-wise (one slice per field, small integer enums,
// strings interned into a table) so that millions of events hold no pointers
// and the garbage collector never scans them. Rows are sorted by rank, then
// start time; RankRange gives one rank's rows. GPU samples are columns too,
// packed (Samples, Packed): each value in the bytes its block of 128 needs,
// so that days of 100 ms samples of many GPUs keep tens of bytes a sample.
//
// Times are int64 nanoseconds on the clock of the rank that recorded them
// (each host has its own clock; analysis estimates the offsets). A value of
// -1 in an integer column means "unknown" unless a field says otherwise.
package model
