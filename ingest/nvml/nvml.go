// Package nvml reads ... (being built).
package nvml

import "github.com/tpptrace/tpptrace/ingest/source"

// Formats are the input formats this package reads.
var Formats []source.Format
