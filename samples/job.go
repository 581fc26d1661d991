package samples

import (
	"fmt"

	"github.com/tpptrace/tpptrace/model"
)

// Job is a simulated job: its configuration, the normalized trace its
// profilers would record, and the truth the analysis must recover.
type Job struct {
	Config Config
	Trace  *model.Trace
	Truth  Truth
}

// Simulate runs the discrete-event simulation of cfg. The result is a
// deterministic function of cfg (Seed included).
func Simulate(cfg Config) (*Job, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("simulate %q: %w", cfg.Name, err)
	}
	s := newSim(&cfg)
	s.build()
	if err := s.solve(); err != nil {
		return nil, fmt.Errorf("simulate %q: %w", cfg.Name, err)
	}
	s.numberP2P()
	return &Job{Config: cfg, Trace: s.emit(), Truth: s.truth()}, nil
}

// build writes every rank's program.
func (s *sim) build() {
	s.progs = make([][]op, s.cfg.World())
	for r := range s.progs {
		b := newBuilder(s, r)
		for k := range s.cfg.Steps {
			b.buildStep(int32(k))
		}
		s.progs[r] = b.ops
	}
}
