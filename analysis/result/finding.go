package result

import "github.com/tpptrace/tpptrace/model/vocab"

// Finding is one diagnosed cause of lost time, as data: its headline and
// evidence are Statements, which the views render into sentences through
// one renderer (report/prose) from the templates of vocab.Statements.
type Finding struct {
	Kind      string      `json:"kind"`       // a vocab.FindingKinds name
	Severity  string      `json:"severity"`   // "high", "medium", "low", "info"
	CostNs    int64       `json:"cost_ns"`    // per step
	CostShare float64     `json:"cost_share"` // CostNs / step_ns
	Headline  Statement   `json:"headline"`
	Evidence  []Statement `json:"evidence,omitempty"`
	Remedy    string      `json:"remedy,omitempty"`
	Ranks     []int       `json:"ranks"`
	Stages    []int       `json:"stages"`
}

// Statement is one fact as data: what it says (Say, a key of
// vocab.Statements, whose template the views fill), its figures, and the
// ranks, stages and axes it is about, in the order the sentence names
// them. Words are the names it quotes that are no figure: a schedule, a
// scenario, host names, GPU throttle reasons.
type Statement struct {
	Say     string            `json:"say"`
	Figures []Figure          `json:"figures,omitempty"`
	Ranks   []int             `json:"ranks,omitempty"`
	Stages  []int             `json:"stages,omitempty"`
	Axes    []string          `json:"axes,omitempty"`
	Words   map[string]string `json:"words,omitempty"`
}

// Figure is one named number of a Statement and its unit (a vocab Unit:
// "ns", "fraction", "count", "ratio", "bytes", "MHz", "°C").
type Figure struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// Say starts a Statement.
func Say(say string, figs ...Figure) Statement { return Statement{Say: say, Figures: figs} }

// About sets the ranks a Statement names.
func (s Statement) About(ranks ...int) Statement { s.Ranks = ranks; return s }

// At sets the stages a Statement names.
func (s Statement) At(stages ...int) Statement { s.Stages = stages; return s }

// On sets the axes a Statement names.
func (s Statement) On(axes ...string) Statement { s.Axes = axes; return s }

// Quoting adds a word the Statement quotes.
func (s Statement) Quoting(name, word string) Statement {
	w := make(map[string]string, len(s.Words)+1)
	for k, v := range s.Words {
		w[k] = v
	}
	w[name] = word
	s.Words = w
	return s
}

// With adds figures.
func (s Statement) With(figs ...Figure) Statement {
	s.Figures = append(append([]Figure(nil), s.Figures...), figs...)
	return s
}

// Figure is the figure named name, and whether there is one.
func (s Statement) Figure(name string) (Figure, bool) {
	for _, f := range s.Figures {
		if f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}

// Ns is a duration figure in nanoseconds.
func Ns(name string, ns int64) Figure { return Figure{name, float64(ns), vocab.UnitNs} }

// Frac is a fraction figure (0..1).
func Frac(name string, f float64) Figure { return Figure{name, f, vocab.UnitFraction} }

// Count is a count figure.
func Count(name string, n int64) Figure { return Figure{name, float64(n), vocab.UnitCount} }

// Ratio is a ratio figure (×).
func Ratio(name string, r float64) Figure { return Figure{name, r, vocab.UnitRatio} }

// Bytes is a size figure in bytes.
func Bytes(name string, b int64) Figure { return Figure{name, float64(b), vocab.UnitBytes} }

// Fig is a figure in any vocab unit.
func Fig(name string, v float64, unit string) Figure { return Figure{name, v, unit} }

// Text is a sentence kept as text (vocab.SayText): what a version-1
// Result's findings held, and hand-written fixtures.
func Text(s string) Statement { return Say(vocab.SayText).Quoting("text", s) }
