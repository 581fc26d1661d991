// Package source holds what every format reader under ingest/ shares: the
// options a read takes and the errors it returns. Standard library only.
package source

import (
	"context"
	"fmt"
	"regexp"

	"github.com/tpptrace/tpptrace/model"
)

// Options are the knobs every format reader accepts. The zero value is valid.
type Options struct {
	// RankMap maps a file path (as given) or base name to its global rank,
	// for traces that do not say which rank wrote them (--rank-map).
	RankMap map[string]int32
	// StepRegex names the annotation / NVTX ranges that delimit iterations;
	// nil means the format's default (ProfilerStep#N for Kineto).
	StepRegex *regexp.Regexp
	// Workers bounds how many files are read at once; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, is called with bytes read so far and bytes in all,
	// from any goroutine.
	Progress func(done, total int64)
	// Warn, when set, receives one-line warnings (from any goroutine).
	Warn func(msg string)
	// MaxMemory, when positive, bounds the live heap (bytes) while reading:
	// a reader that finds it exceeded stops with an error that wraps
	// ErrMemoryBudget and names the file, and the load fails (CheckMemory).
	MaxMemory int64
}

// Format is one input format: the dispatcher in package ingest sniffs every
// file with each Format's Sniff, groups the files by format and calls Read
// once per group.
type Format struct {
	Name  string // "kineto", "nsys", "nccl-log", ...
	About string // one line for help and docs
	// Sniff reports whether the file is of this format, from its path and
	// first bytes (up to 4 KiB, decompressed when the file is gzip).
	Sniff func(path string, head []byte) bool
	// Read reads the files into one trace. A file that cannot be read is an
	// error naming it, unless the reader can skip it and still return the
	// rest: then it records the skip in Trace.Skipped and goes on.
	Read func(ctx context.Context, paths []string, opts Options) (*model.Trace, error)
}

// FileError is an error in one input file, with the position when known.
type FileError struct {
	Path   string
	Offset int64  // byte offset or line number, -1 when unknown
	Unit   string // "byte" or "line"
	Err    error
}

func (e *FileError) Error() string {
	if e.Offset >= 0 && e.Unit != "" {
		return fmt.Sprintf("%s: %s %d: %v", e.Path, e.Unit, e.Offset, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }
