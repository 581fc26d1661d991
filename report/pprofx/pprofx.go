package pprofx

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/google/pprof/profile"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// builder interns functions and locations by frame name.
type builder struct {
	p    *profile.Profile
	locs map[string]*profile.Location
}

func newBuilder(durationNs int64) *builder {
	m := &profile.Mapping{ID: 1, File: "tpptrace", HasFunctions: true, HasFilenames: true}
	p := &profile.Profile{
		SampleType:        []*profile.ValueType{{Type: "step_time", Unit: "nanoseconds"}},
		DefaultSampleType: "step_time",
		PeriodType:        &profile.ValueType{Type: "step_time", Unit: "nanoseconds"},
		Period:            1, DurationNanos: durationNs, Mapping: []*profile.Mapping{m},
	}
	return &builder{p: p, locs: map[string]*profile.Location{}}
}

func (b *builder) loc(name string) *profile.Location {
	if l, ok := b.locs[name]; ok {
		return l
	}
	id := uint64(len(b.p.Function) + 1)
	fn := &profile.Function{ID: id, Name: name, SystemName: name}
	l := &profile.Location{ID: id, Mapping: b.p.Mapping[0], Line: []profile.Line{{Function: fn}}}
	b.p.Function, b.p.Location = append(b.p.Function, fn), append(b.p.Location, l)
	b.locs[name] = l
	return l
}

// add records ns along frames, given root first.
func (b *builder) add(ns int64, labels map[string][]string, frames ...string) {
	if ns <= 0 {
		return
	}
	locs := make([]*profile.Location, 0, len(frames))
	for i := len(frames) - 1; i >= 0; i-- {
		if frames[i] != "" {
			locs = append(locs, b.loc(frames[i]))
		}
	}
	b.p.Sample = append(b.p.Sample, &profile.Sample{Location: locs, Value: []int64{ns}, Label: labels})
}

// Profile builds the profile of r; tr, when not nil, supplies kernel
// leaves. The profile passes CheckValid.
func Profile(r *result.Result, tr *model.Trace) (*profile.Profile, error) {
	if r == nil {
		return nil, errors.New("pprof: no result")
	}
	var b *builder
	if r.Timeline != nil && len(r.Timeline.Rows) > 0 {
		b = newBuilder(r.Timeline.EndNs - r.Timeline.StartNs)
		fromTimeline(b, r, tr)
	} else {
		b = newBuilder(r.StepNs)
		fromRanks(b, r)
	}
	b.p.Comments = []string{r.Tool, fmt.Sprintf("layout tp=%d pp=%d dp=%d, schedule %s, %d microbatches", r.Layout.TP, r.Layout.PP, r.Layout.DP, r.Schedule, r.Microbatches)}
	if len(b.p.Sample) == 0 {
		return nil, errors.New("pprof: the result holds no time to attribute")
	}
	if err := b.p.CheckValid(); err != nil {
		return nil, fmt.Errorf("pprof: built an invalid profile: %w", err)
	}
	return b.p, nil
}

func rankFrame(rank int) string   { return "rank " + strconv.Itoa(rank) }
func stageFrame(stage int) string { return "stage " + strconv.Itoa(stage) }
