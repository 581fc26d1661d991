package flightrec

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// entrySink receives a JSON dump's entries as they are read: start at
// each "entries" list (a repeated key replaces the list before, as in a
// decoded map), then entry for each of its entries with its index.
type entrySink struct {
	start func()
	entry func(i int, v any) error
}

// streamed stands for the entries list of a streamed JSON dump in the
// top-level values.
type streamed struct{}

// jsonDump streams a JSON dump from r: the top-level values are decoded
// whole but for the entries, each decoded alone and handed to sink, so
// that one entry's generic values are live at a time. The first error an
// entry gives is returned apart (entryErr), after the values, as decoding
// the whole dump and then converting it would order them; a memory budget
// error stops the read at once.
func jsonDump(r io.Reader, sink entrySink) (top map[string]any, entryErr, err error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, notJSON(err)
	}
	if tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("top level is a %s, want a dict", tokenKind(tok))
	}
	top = map[string]any{}
	for dec.More() {
		if tok, err = dec.Token(); err != nil {
			return nil, nil, notJSON(err)
		}
		key, _ := tok.(string)
		if key != "entries" {
			var v any
			err = dec.Decode(&v)
			top[key] = v
		} else if top[key], entryErr, err = streamEntries(dec, sink); errors.Is(entryErr, source.ErrMemoryBudget) {
			return nil, nil, entryErr
		}
		if err != nil {
			return nil, nil, notJSON(err)
		}
	}
	if _, err = dec.Token(); err != nil {
		return nil, nil, notJSON(err)
	}
	return top, entryErr, nil
}

func notJSON(err error) error { return fmt.Errorf("neither a pickle nor JSON: %w", err) }

// tokenKind names what a top-level token starts, as kindOf names values.
func tokenKind(tok json.Token) string {
	switch tok {
	case json.Delim('['):
		return kindOf([]any(nil))
	case json.Delim('{'):
		return kindOf(map[string]any(nil))
	}
	return kindOf(tok)
}

// streamEntries reads the value of an "entries" key: a list is streamed to
// sink (streamed{} stands for it), anything else is returned as decoded
// (an object as an empty one: only its kind is reported).
func streamEntries(dec *json.Decoder, sink entrySink) (v any, entryErr, err error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	switch tok {
	case json.Delim('{'):
		return map[string]any{}, nil, skipObject(dec)
	case json.Delim('['):
	default:
		return tok, nil, nil
	}
	sink.start()
	for i := 0; dec.More(); i++ {
		var e any
		if err := dec.Decode(&e); err != nil {
			return nil, nil, err
		}
		if entryErr == nil {
			if entryErr = sink.entry(i, e); errors.Is(entryErr, source.ErrMemoryBudget) {
				return nil, entryErr, nil
			}
		}
	}
	_, err = dec.Token()
	return streamed{}, entryErr, err
}

// skipObject reads the rest of an object whose '{' was read.
func skipObject(dec *json.Decoder) error {
	for dec.More() {
		if _, err := dec.Token(); err != nil {
			return err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}
