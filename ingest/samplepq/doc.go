// Package samplepq is the one Parquet schema of GPU samples (Row), shared
// by the samples files `tpptrace sample` writes (ingest/nvml) and the
// samples table of a dataset (ingest/dataset), with its columnar reader and
// its writer.
//
// The reader goes through row groups, column chunks and pages with
// parquet-go's typed value readers, a batch of rows at a time, straight
// into the trace's compact Samples: no Row is built, and a GPU's identity
// strings are made once per GPU. Files are opened by the caller through
// ingest/pqsafe, and reading runs under pqsafe.Guard.
package samplepq
