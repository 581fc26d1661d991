// Package report renders a Result: Text, the diagnosis a person reads in
// thirty seconds, and JSON, the versioned machine form. Plots, HTML and
// exports live in report/<sub> packages; nothing here recomputes analysis.
package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// JSON writes res indented (json.MarshalIndent's bytes, two spaces a
// level), with a trailing newline. Output is deterministic: struct fields
// in declaration order, map keys sorted.
func JSON(w io.Writer, res *result.Result) error {
	pieces, err := splitJSON(res)
	if err == nil && pieces == nil {
		var b []byte
		b, err = oneJSON(res)
		pieces = [][]byte{b}
	}
	if err != nil {
		return fmt.Errorf("report: encode result: %w", err)
	}
	for _, b := range pieces {
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("report: write result: %w", err)
		}
	}
	return nil
}

// oneJSON is JSON's bytes in one pass.
func oneJSON(res *result.Result) ([]byte, error) {
	c, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	return append(indentJSON(make([]byte, 0, 2*len(c)+1), c), '\n'), nil
}

// ReadJSON decodes a Result written by JSON, refusing newer schema
// versions. A version-1 Result (findings as sentences) is read with its
// sentences kept as text statements (see readV1).
func ReadJSON(r io.Reader) (*result.Result, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read result: %w", err)
	}
	var head struct {
		SchemaVersion int `json:"schema_version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("decode result: %w", err)
	}
	switch {
	case head.SchemaVersion > result.SchemaVersion:
		return nil, fmt.Errorf("result schema version %d is newer than this build's %d", head.SchemaVersion, result.SchemaVersion)
	case head.SchemaVersion < 2:
		return readV1(b)
	}
	var res result.Result
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("decode result: %w", err)
	}
	return &res, nil
}
