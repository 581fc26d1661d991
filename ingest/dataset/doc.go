// Package dataset stores a model.Trace as a directory of Parquet files plus a
// JSON manifest, and reads it back whole or one rank at a time.
//
// Layout of a dataset directory (docs/dataset.md has every column):
//
//	manifest.json            schema version, tool, sources, ranks, counts
//	ranks.parquet            the rank table
//	streams.parquet          GPU streams and CPU threads
//	comms.parquet            communicators, members as a LIST of INT32
//	collectives.parquet      collective attributes; events refer to them by index
//	events/rank=00000.parquet one file per rank, sorted by start
//	samples.parquet          NVML samples (only when there are any)
//	sample_gpus.parquet      the GPUs those samples were taken on
//	skipped.parquet          input that was read but not kept
//
// Enums and names are written as dictionary-encoded strings, never as
// internal ids, so that DuckDB, pyarrow or Spark read the files without this
// package. Only standard Parquet types are used: BOOLEAN, INT32, INT64 (with
// or without an INT logical type), STRING and LIST.
//
// The manifest is written last: a directory is a dataset (IsDataset) only
// once every file in it is complete.
package dataset
