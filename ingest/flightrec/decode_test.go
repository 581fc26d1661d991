package flightrec

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tpptrace/tpptrace/ingest/flightrec/pickle"
)

// decodeDump decodes a whole dump, pickle or JSON, into generic values:
// the reference the streamed JSON read is checked against.
func decodeDump(b []byte) (any, error) {
	if len(b) > 0 && b[0] == 0x80 {
		return pickle.DecodeBytes(b)
	}
	dec := json.NewDecoder(bufio.NewReader(bytes.NewReader(b)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("neither a pickle nor JSON: %w", err)
	}
	return v, nil
}
