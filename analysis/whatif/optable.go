package whatif

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// Op type names of the op-table form (whatif.md §1).
const (
	FwdCompute  = "forward-compute"
	BwdCompute  = "backward-compute"
	FwdSend     = "forward-send"
	FwdRecv     = "forward-recv"
	BwdSend     = "backward-send"
	BwdRecv     = "backward-recv"
	GC          = "gc"
	LayernormAR = "layernorm-grads-all-reduce"
	EmbeddingAR = "embedding-grads-all-reduce"
	ParamsAG    = "params-all-gather"
	GradsRS     = "grads-reduce-scatter"
	SeparateAR  = "separate-grads-all-reduce"
	Clip        = "optimizer-clip-main-grad"
	Optimizer   = "optimizer"
)

// p2pEps is the slack when deciding whether a PP send/recv belongs to the
// step's compute (5e-5 s, as the published analysis).
const p2pEps = 5e-5

// opKey names an op inside one (step, DP replica): stage, type, seq.
type opKey struct{ stage, typ, seq int32 }

// tgroup is a template synchronisation group; dpSync groups span every DP
// replica of the step.
type tgroup struct {
	members []opKey
	dpSync  bool
}

// tmpl is the dependency model of one (step, DP replica), built from the
// first step of DP replica 0 and shared by all (whatif.md §2).
type tmpl struct {
	edges  [][2]opKey
	groups []tgroup
}

// tableBuilder builds the template from an op table.
type tableBuilder struct {
	t      *model.OpTable
	types  map[string]int32
	pp, dp int32
	vpp    int32
	ovlp   bool
	rows   [][]int // rows of the template step, DP 0, per stage
	tm     tmpl
	noop   map[int]bool // p2p rows that are no-ops
}

// FromOpTable builds the replay graph of an op table: one op per row, in
// row order.
func FromOpTable(t *model.OpTable) (*Graph, error) {
	if t.Len() == 0 {
		return nil, fmt.Errorf("op table: no rows")
	}
	b := newTableBuilder(t)
	b.build()
	g, err := b.instantiate()
	if err != nil {
		return nil, fmt.Errorf("op table: %w", err)
	}
	return g, nil
}

func newTableBuilder(t *model.OpTable) *tableBuilder {
	b := &tableBuilder{t: t, types: map[string]int32{}, noop: map[int]bool{}}
	for i, n := range t.OpTypes {
		b.types[n] = int32(i)
	}
	minStep := slices.Min(t.Step)
	for i := range t.Len() {
		b.pp = max(b.pp, t.Stage[i]+1)
		b.dp = max(b.dp, t.DP[i]+1)
		b.vpp = max(b.vpp, t.MC[i]+1)
	}
	_, b.ovlp = b.types[SeparateAR]
	b.rows = make([][]int, b.pp)
	for i := range t.Len() {
		if t.Step[i] == minStep && t.DP[i] == 0 {
			b.rows[t.Stage[i]] = append(b.rows[t.Stage[i]], i)
		}
	}
	for s := range b.rows {
		slices.SortStableFunc(b.rows[s], b.cmpRows)
	}
	return b
}

// cmpRows orders rows by start, then seq, then optype name.
func (b *tableBuilder) cmpRows(x, y int) int {
	t := b.t
	return cmp.Or(cmp.Compare(t.Start[x], t.Start[y]), cmp.Compare(t.Seq[x], t.Seq[y]),
		cmp.Compare(t.OpTypes[t.OpType[x]], t.OpTypes[t.OpType[y]]))
}

func (b *tableBuilder) key(r int) opKey {
	return opKey{b.t.Stage[r], b.t.OpType[r], b.t.Seq[r]}
}

// named returns the key of (stage, type name, seq), ok false when the type
// is absent from the table.
func (b *tableBuilder) named(stage int32, name string, seq int32) (opKey, bool) {
	id, ok := b.types[name]
	return opKey{stage, id, seq}, ok
}

// of returns the template rows of stage whose type is one of names, in order.
func (b *tableBuilder) of(stage int32, names ...string) []int {
	var out []int
	for _, r := range b.rows[stage] {
		if slices.Contains(names, b.t.OpTypes[b.t.OpType[r]]) {
			out = append(out, r)
		}
	}
	return out
}

func (b *tableBuilder) edge(a, c opKey) { b.tm.edges = append(b.tm.edges, [2]opKey{a, c}) }

// chain links rows one after another.
func (b *tableBuilder) chain(rows []int) {
	for i := 1; i < len(rows); i++ {
		b.edge(b.key(rows[i-1]), b.key(rows[i]))
	}
}

func (b *tableBuilder) build() {
	for s := range b.pp {
		comp := b.of(s, FwdCompute, BwdCompute)
		b.chain(comp)
		b.matchP2P(s, comp)
		for _, k := range []string{FwdSend, FwdRecv, BwdSend, BwdRecv} {
			b.chain(b.of(s, k))
		}
		b.firstBackward(s, comp)
		if b.dp > 1 {
			b.dpDeps(s, comp)
		}
		b.tail(s, comp)
	}
	b.p2pGroups()
	b.syncGroups()
}
