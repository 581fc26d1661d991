package steps

import "github.com/tpptrace/tpptrace/model"

// views reads one rank's events at a time from a model.RankSource for the
// parts of Find that need a rank's every event (its extent, host syncs, GPU
// work, kernels by name, launches); the rest reads the trace Find is given.
// It keeps the first read error for Find to return.
type views struct {
	src model.RankSource
	err error
}

// of returns rank r's events, an empty trace after a read error.
func (v *views) of(r int32) *model.Trace {
	t, err := v.src.RankEvents(r)
	if err != nil {
		if v.err == nil {
			v.err = err
		}
		return &model.Trace{}
	}
	return t
}
