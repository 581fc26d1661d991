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

// JSON writes res indented, with a trailing newline. Output is
// deterministic: struct fields in declaration order, map keys sorted.
func JSON(w io.Writer, res *result.Result) error {
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return fmt.Errorf("report: encode result: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("report: write result: %w", err)
	}
	return nil
}

// ReadJSON decodes a Result written by JSON, refusing newer schema versions.
func ReadJSON(r io.Reader) (*result.Result, error) {
	var res result.Result
	if err := json.NewDecoder(r).Decode(&res); err != nil {
		return nil, fmt.Errorf("decode result: %w", err)
	}
	if res.SchemaVersion > result.SchemaVersion {
		return nil, fmt.Errorf("result schema version %d is newer than this build's %d", res.SchemaVersion, result.SchemaVersion)
	}
	return &res, nil
}
