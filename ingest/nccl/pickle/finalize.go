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
// once even when the memo shares it, and refusing cycles.
type finalizer struct {
	lists    map[*list][]any
	done     map[any]bool   // dicts already converted, by address
	tuples   map[*any]Tuple // tuples already converted, by first element
	active   map[any]bool
	maxDepth int
}

func finalize(v any, maxDepth int) (any, error) {
	f := &finalizer{lists: map[*list][]any{}, done: map[any]bool{}, tuples: map[*any]Tuple{}, active: map[any]bool{}, maxDepth: maxDepth}
	return f.value(v, 0)
}

var errCycle = errors.New("a container contains itself")

func (f *finalizer) value(v any, depth int) (any, error) {
	if depth > f.maxDepth {
		return nil, fmt.Errorf("nesting deeper than %d", f.maxDepth)
	}
	switch x := v.(type) {
	case *list:
		return f.list(x, depth)
	case map[string]any:
		return x, f.dict(x, depth)
	case Tuple:
		return f.tuple(x, depth)
	}
	return v, nil
}

func (f *finalizer) list(l *list, depth int) (any, error) {
	if out, ok := f.lists[l]; ok {
		return out, nil
	}
	if f.active[l] {
		return nil, errCycle
	}
	f.active[l] = true
	defer delete(f.active, l)
	out := make([]any, len(l.items))
	for i, it := range l.items {
		v, err := f.value(it, depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	f.lists[l] = out
	return out, nil
}

func (f *finalizer) dict(m map[string]any, depth int) error {
	id := fmt.Sprintf("%p", m)
	if f.done[id] {
		return nil
	}
	if f.active[id] {
		return errCycle
	}
	f.active[id] = true
	defer delete(f.active, id)
	for k, it := range m {
		v, err := f.value(it, depth+1)
		if err != nil {
			return err
		}
		m[k] = v
	}
	f.done[id] = true
	return nil
}

func (f *finalizer) tuple(t Tuple, depth int) (any, error) {
	if len(t) == 0 {
		return t, nil
	}
	if out, ok := f.tuples[&t[0]]; ok {
		return out, nil
	}
	out := make(Tuple, len(t))
	for i, it := range t {
		v, err := f.value(it, depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	f.tuples[&t[0]] = out
	return out, nil
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
