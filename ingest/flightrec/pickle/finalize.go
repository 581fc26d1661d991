package pickle

import (
	"errors"
	"fmt"
)

// list is a Python list while decoding: lists are mutable and may be
// memoized before APPENDS fill them, so they are held by pointer until the
// end.
type list struct{ items []any }

// finalizer turns decoded values into plain Go values, converting every list
// once even when the memo shares it, and refusing cycles. It also counts
// the expanded size of the result, every value once per place it appears
// (a shared list counts each time it is referenced), and refuses a result
// larger than the budget: a few KB of memoised references can stand for
// billions of values, which any reader walking the result would expand.
type finalizer struct {
	lists    map[*list]sized
	done     map[any]int64  // dicts already converted, by address: their expanded size
	tuples   map[*any]sized // tuples already converted, by first element
	active   map[any]bool
	maxDepth int
	budget   int64 // the most values the expanded result may hold
}

// sized is a converted container and its expanded size.
type sized struct {
	v any
	n int64
}

func finalize(v any, lim Limits) (any, error) {
	f := &finalizer{lists: map[*list]sized{}, done: map[any]int64{}, tuples: map[*any]sized{}, active: map[any]bool{},
		maxDepth: lim.MaxDepth, budget: lim.MaxExpanded}
	out, _, err := f.value(v, 0)
	return out, err
}

var errCycle = errors.New("a container contains itself")

// value converts v and returns its expanded size (1 for a scalar).
func (f *finalizer) value(v any, depth int) (any, int64, error) {
	if depth > f.maxDepth {
		return nil, 0, fmt.Errorf("nesting deeper than %d", f.maxDepth)
	}
	switch x := v.(type) {
	case *list:
		return f.list(x, depth)
	case map[string]any:
		n, err := f.dict(x, depth)
		return x, n, err
	case Tuple:
		return f.tuple(x, depth)
	}
	return v, 1, nil
}

// add sums expanded sizes, refusing a total over the budget.
func (f *finalizer) add(total, n int64) (int64, error) {
	if total += n; total > f.budget {
		return 0, fmt.Errorf("the value expands to more than %d values (memoised values counted once per reference)", f.budget)
	}
	return total, nil
}

func (f *finalizer) list(l *list, depth int) (any, int64, error) {
	if c, ok := f.lists[l]; ok {
		return c.v, c.n, nil
	}
	if f.active[l] {
		return nil, 0, errCycle
	}
	f.active[l] = true
	defer delete(f.active, l)
	out, n, err := f.items(l.items, depth)
	if err != nil {
		return nil, 0, err
	}
	f.lists[l] = sized{out, n}
	return out, n, nil
}

// items converts a container's items; the size counts the container too.
func (f *finalizer) items(in []any, depth int) ([]any, int64, error) {
	out, total := make([]any, len(in)), int64(1)
	for i, it := range in {
		v, n, err := f.value(it, depth+1)
		if err == nil {
			total, err = f.add(total, n)
		}
		if err != nil {
			return nil, 0, err
		}
		out[i] = v
	}
	return out, total, nil
}

func (f *finalizer) dict(m map[string]any, depth int) (int64, error) {
	id := fmt.Sprintf("%p", m)
	if n, ok := f.done[id]; ok {
		return n, nil
	}
	if f.active[id] {
		return 0, errCycle
	}
	f.active[id] = true
	defer delete(f.active, id)
	total := int64(1)
	for k, it := range m {
		v, n, err := f.value(it, depth+1)
		if err == nil {
			total, err = f.add(total, n+1) // the key too
		}
		if err != nil {
			return 0, err
		}
		m[k] = v
	}
	f.done[id] = total
	return total, nil
}

func (f *finalizer) tuple(t Tuple, depth int) (any, int64, error) {
	if len(t) == 0 {
		return t, 1, nil
	}
	if c, ok := f.tuples[&t[0]]; ok {
		return c.v, c.n, nil
	}
	out, n, err := f.items(t, depth)
	if err != nil {
		return nil, 0, err
	}
	f.tuples[&t[0]] = sized{Tuple(out), n}
	return Tuple(out), n, nil
}

func typeName(v any) string {
	switch v.(type) {
	case *list:
		return "list"
	case map[string]any:
		return "dict"
	case Tuple:
		return "tuple"
	case nil:
		return "None"
	}
	return fmt.Sprintf("%T", v)
}
