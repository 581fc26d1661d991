// Package kineto reads PyTorch profiler (Kineto) Chrome traces.
package kineto

import (
	"context"
	"errors"

	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// Format describes Kineto traces to the dispatcher.
var Format = source.Format{Name: "kineto", About: "PyTorch profiler (Kineto) Chrome trace, .json or .json.gz", Sniff: Sniff, Read: Read}

// Sniff reports whether head looks like a Kineto trace.
func Sniff(path string, head []byte) bool { return false }

// Read reads Kineto trace files, one per rank.
func Read(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	return nil, errors.New("kineto: not built yet")
}
