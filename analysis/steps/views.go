package steps

import (
	"github.com/tpptrace/tpptrace/analysis/par"
	"github.com/tpptrace/tpptrace/model"
)

// views reads one rank's events at a time from a model.RankSource for the
// parts of Find that need a rank's every event (its extent, host syncs, GPU
// work, kernels by name, launches); the rest reads the trace Find is given.
// It keeps the first read error for Find to return.
type views struct {
	src model.RankSource
	err error
}

// keep keeps err when it is the first.
func (v *views) keep(err error) {
	if v.err == nil {
		v.err = err
	}
}

// each calls f(i, ranks[i]'s events) for every rank, on every core
// (par.Each), so that a source read rank by rank decodes ranks side by
// side while each goroutine holds one rank's events at a time; f must
// write only its index's slots. A rank whose read fails gets an empty
// trace, and the first failure in ranks' order is kept. When
// stop is not nil, a rank not started once it returns true is skipped.
func (v *views) each(ranks []int32, stop func() bool, f func(i int, t *model.Trace)) {
	errs := make([]error, len(ranks))
	par.Each(len(ranks), func(i int) {
		if stop != nil && stop() {
			return
		}
		t, err := v.src.RankEvents(ranks[i])
		if err != nil {
			errs[i], t = err, &model.Trace{}
		}
		f(i, t)
	})
	for _, err := range errs {
		if err != nil {
			v.keep(err)
			return
		}
	}
}
