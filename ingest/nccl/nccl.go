// Package nccl reads ... (being built).
package nccl

import "github.com/tpptrace/tpptrace/ingest/source"

// Formats are the input formats this package reads.
var Formats []source.Format
