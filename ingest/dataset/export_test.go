package dataset

// Test helpers shared with the external conformance tests.
var (
	Dump      = dump
	DiffDumps = diffDumps
)
