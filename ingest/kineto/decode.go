package kineto

import "encoding/json"

// decoder decodes one JSON element into a Go value: the tests' oracle for
// the one-pass element decoder (evDecoder), which Read uses.
type decoder interface {
	Unmarshal(data []byte, v any) error
}

type stdDecoder struct{}

func (stdDecoder) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
