package kineto

import (
	stdjson "encoding/json"

	gojson "github.com/goccy/go-json"
)

// decoder decodes one JSON element into a Go value. The reader uses goccy's
// fast decoder; tests check it against encoding/json on real traces.
type decoder interface {
	Unmarshal(data []byte, v any) error
}

type goccyDecoder struct{}

func (goccyDecoder) Unmarshal(data []byte, v any) error { return gojson.Unmarshal(data, v) }

type stdDecoder struct{}

func (stdDecoder) Unmarshal(data []byte, v any) error { return stdjson.Unmarshal(data, v) }

// defaultDecoder is what Read uses.
var defaultDecoder decoder = goccyDecoder{}
