package kineto

import (
	"bytes"

	"github.com/tpptrace/tpptrace/model"
)

// memo remembers what the collective passes derive from a text that
// repeats from event to event (a collective's or a kernel's name, a
// group's name, a dtype), so that each distinct text of a file is worked
// out and allocated once. Each map stops growing at memoMax entries.
type memo struct {
	strs  map[string]string
	ops   map[string]model.Op // collectiveOp
	kops  map[string]model.Op // kernelOp
	anns  map[string]commInfo // annotationInfo
	sizes map[string]int64    // dtypeSize
}

const memoMax = 4096

func newMemo() *memo {
	return &memo{strs: map[string]string{}, ops: map[string]model.Op{}, kops: map[string]model.Op{},
		anns: map[string]commInfo{}, sizes: map[string]int64{}}
}

// str is string(b), one string per distinct text.
func (m *memo) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if s, ok := m.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(m.strs) < memoMax {
		m.strs[s] = s
	}
	return s
}

// collectiveOp is collectiveOp(string(b)).
func (m *memo) collectiveOp(b []byte) model.Op {
	if op, ok := m.ops[string(b)]; ok {
		return op
	}
	op := collectiveOp(string(b))
	if len(m.ops) < memoMax {
		m.ops[string(b)] = op
	}
	return op
}

// kernelOp is kernelOp(name).
func (m *memo) kernelOp(name string) model.Op { return remember(m.kops, name, kernelOp) }

// dtypeSize is dtypeSize(t).
func (m *memo) dtypeSize(t string) int64 { return remember(m.sizes, t, dtypeSize) }

// annotationInfo is annotationInfo(name).
func (m *memo) annotationInfo(name string) commInfo { return remember(m.anns, name, annotationInfo) }

func remember[V any](m map[string]V, k string, f func(string) V) V {
	if v, ok := m[k]; ok {
		return v
	}
	v := f(k)
	if len(m) < memoMax {
		m[k] = v
	}
	return v
}

// trimQuotes is strings.Trim(string(b), `"`) without the string.
func trimQuotes(b []byte) []byte { return bytes.Trim(b, `"`) }
