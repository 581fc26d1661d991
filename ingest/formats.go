package ingest

import (
	"github.com/tpptrace/tpptrace/ingest/flightrec"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/nccl/inspector"
	"github.com/tpptrace/tpptrace/ingest/nccl/ncclog"
	"github.com/tpptrace/tpptrace/ingest/nccl/profiler"
	"github.com/tpptrace/tpptrace/ingest/nsys"
	"github.com/tpptrace/tpptrace/ingest/nvml"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// Formats is the registry of input formats, in sniffing order: the first
// whose Sniff accepts a file reads it. Help, docs and tests read this table.
func Formats() []source.Format {
	var fs []source.Format
	fs = append(fs, kineto.Format)
	fs = append(fs, nsys.Formats...)
	fs = append(fs, flightrec.Format, profiler.Format, inspector.Format, ncclog.Format)
	fs = append(fs, nvml.Formats...)
	return fs
}
