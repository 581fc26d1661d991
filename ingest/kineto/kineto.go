// Package kineto reads PyTorch profiler (Kineto) Chrome traces, .json or
// .json.gz, one file per rank, into a model.Trace.
//
// Files are read in parallel (bounded by Options.Workers) and each file is
// streamed: a byte-level splitter (split.go) yields each traceEvents element
// wherever the key sits and goccy/go-json decodes it into a small struct, so
// memory holds one buffer plus the events kept. Times are parsed from the
// decimal text of ts/dur into exact int64 nanoseconds. See docs/kineto.md
// for every rule: categories, ranks, iterations, NCCL kernels and process
// groups, and how bad input is reported.
package kineto

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// Format describes Kineto traces to the dispatcher.
var Format = source.Format{Name: "kineto", About: "PyTorch profiler (Kineto) Chrome trace, .json or .json.gz", Sniff: Sniff, Read: Read}

// DefaultStepRegex names the iteration annotations when Options.StepRegex is nil.
var DefaultStepRegex = regexp.MustCompile(`^ProfilerStep#(\d+)$`)

// Sniff reports whether head (the first bytes, gunzipped) looks like a
// Kineto trace: a JSON object with Kineto's top-level keys, or a bare event
// array holding Kineto categories.
func Sniff(path string, head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if len(head) == 0 {
		return false
	}
	keys := [][]byte{[]byte(`"traceEvents"`), []byte(`"schemaVersion"`), []byte(`"deviceProperties"`), []byte(`"distributedInfo"`)}
	if head[0] == '[' {
		keys = [][]byte{[]byte(`"cpu_op"`), []byte(`"cuda_runtime"`), []byte(`"kernel"`), []byte(`"user_annotation"`)}
	} else if head[0] != '{' {
		return false
	}
	for _, k := range keys {
		if bytes.Contains(head, k) {
			return true
		}
	}
	return false
}

// Read reads Kineto trace files, one per rank. A file that cannot be read
// is recorded in Trace.Skipped (its error names the file and the byte
// offset) and the others are still returned; Read fails only when no file
// could be read, or when two files claim the same rank.
func Read(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	results := readAll(ctx, paths, opts, len(paths) == 1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, r := range results {
		if errors.Is(r.err, source.ErrMemoryBudget) {
			return nil, r.err // the whole load fails: skipping the file would hide it
		}
	}
	warnFailed(results, len(paths), opts)
	return combine(results)
}

// warnFailed says on the warning channel which files could not be read
// when others could: the analysis goes on without them.
func warnFailed(results []fileResult, n int, opts source.Options) {
	failed := 0
	for _, r := range results {
		if r.err != nil {
			failed++
		}
	}
	if opts.Warn == nil || failed == 0 || failed == n {
		return
	}
	for _, r := range results {
		if r.err != nil {
			opts.Warn(fmt.Sprintf("skipping %v", r.err))
		}
	}
}
