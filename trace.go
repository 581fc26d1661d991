package tpptrace

import (
	"context"
	"regexp"

	"github.com/tpptrace/tpptrace/analysis"
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

	// Read rank by rank (Options.ByRank): model holds the cross-rank rows,
	// ranked every rank's events, events how many there are in all.
	ranked analysis.RankSource
	events int
	full   func(context.Context) (*model.Trace, error) // reads every event of the same inputs
	drop   func()                                      // removes the temporary entry ranked reads (NoCache); nil: none
}

// Model is the normalized trace, nil when the inputs were a Result file or
// an op table (they hold no events). Analyze annotates it (communicator
// axes, rank coordinates, event iterations). For a dataset opened with
// Options.ByRank it holds, of the events, only the cross-rank rows
// (model.Events.CrossRank) until AnalyzeDetail, the what-if replay or
// WhatIfGraph reads every event.
func (t *Trace) Model() *model.Trace { return t.model }

// EventCount is the number of events of the trace, 0 for a Result file or
// an op table.
func (t *Trace) EventCount() int {
	switch {
	case t.ranked != nil:
		return t.events
	case t.model != nil:
		return t.model.Events.Len()
	}
	return 0
}

// Close waits until the dataset cache entry that Open began writing is
// written (a failure is a warning on Options.Warn), and removes the
// temporary entry of a trace read rank by rank with Options.NoCache. The
// Trace stays usable (such a trace reads its inputs again, whole, when
// next analysed).
func (t *Trace) Close() error {
	if t == nil {
		return nil
	}
	if t.wait != nil {
		t.wait()
	}
	t.release()
	return nil
}
