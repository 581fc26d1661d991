package tpptrace

import (
	"regexp"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// Trace is one opened job: the normalized trace of its inputs, or an op
// table, or a Result read from a file.
type Trace struct {
	model   *model.Trace
	ops     *model.OpTable
	opsPath string
	res     *result.Result // opened from a Result file
	stepRe  *regexp.Regexp
	wait    func() // the dataset cache's write; nil: none
}

// Model is the normalized trace, nil when the inputs were a Result file or
// an op table (they hold no events). Analyze annotates it (communicator
// axes, rank coordinates, event iterations).
func (t *Trace) Model() *model.Trace { return t.model }

// Close waits until the dataset cache entry that Open began writing is
// written (a failure is a warning on Options.Warn). The Trace stays usable.
func (t *Trace) Close() error {
	if t != nil && t.wait != nil {
		t.wait()
	}
	return nil
}
