// Package nsys reads Nsight Systems reports: the SQLite export
// (`nsys export --type sqlite`), read directly with a pure-Go SQLite, and
// `.nsys-rep` files, which it exports with the nsys binary when that is on
// PATH (the .nsys-rep format itself is closed and never parsed).
//
// Kernels, memcpys and memsets become GPU events; CUDA runtime calls become
// runtime events; NVTX ranges and marks become annotations. NCCL's NVTX
// ranges are tied to the kernels they launched (through the runtime launch
// inside the range on the same thread) to give each NCCL kernel its
// operation, message size, communicator and peer. CUDA memory usage
// events (--cuda-memory-usage=true) become each rank's allocated-memory
// counter (CUDA-level, not tensor-level: see docs/nsys.md). Times are the report's
// session time plus TARGET_INFO_SESSION_START_TIME.utcEpochNs, i.e. epoch
// ns on the host's clock. See docs/nsys.md.
package nsys

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// Formats are the input formats this package reads: one format for both
// exports and reports, so that a job mixing them is read in one call.
var Formats = []source.Format{{
	Name:  "nsys",
	About: "Nsight Systems SQLite export (.sqlite) or report (.nsys-rep, exported with nsys)",
	Sniff: Sniff,
	Read:  Read,
}}

var (
	sqliteMagic = []byte("SQLite format 3\x00")
	repMagic    = []byte("NVIDIA Tegra Profiler Report")
)

// Sniff accepts SQLite databases and Nsight Systems reports.
func Sniff(path string, head []byte) bool {
	return bytes.HasPrefix(head, sqliteMagic) || bytes.HasPrefix(head, repMagic)
}

// isRep reports whether path is a report rather than an export.
func isRep(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".nsys-rep" || ext == ".qdrep" || hasRepHeader(path)
}

func formatOf(path string) string {
	if isRep(path) {
		return "nsys-rep"
	}
	return "nsys-sqlite"
}
