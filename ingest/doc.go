// Package ingest turns input files into one normalized model.Trace: it
// expands directories, sniffs each file's format (formats.go), reads each
// group of files with its format's reader, merges the parts and validates
// the result. It also opens and caches Parquet datasets.
//
// Only the packages under ingest/ know vendor formats.
package ingest
