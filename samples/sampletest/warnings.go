package sampletest

import (
	"strings"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// Warnings collects warnings (Add is a source.Options.Warn) from any
// goroutine; Msgs is a copy of them so far, in the order they came.
type Warnings struct{ source.Warnings }

// String is the warnings so far, one a line.
func (w *Warnings) String() string { return strings.Join(w.Msgs(), "\n") }
