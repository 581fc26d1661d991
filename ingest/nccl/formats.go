package nccl

import "github.com/tpptrace/tpptrace/ingest/source"

// Formats are the input formats this package reads, in sniffing order.
var Formats []source.Format
