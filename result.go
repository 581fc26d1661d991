package tpptrace

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report"
)

// IsResultFile tells whether path is a JSON Result (it names its
// schema_version near the top; Chrome traces spell it schemaVersion).
func IsResultFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.IsDir() {
		return false
	}
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(`"schema_version"`))
}

// ReadResult reads a Result written by `tpptrace analyze --json`,
// refusing a newer schema version than this build's.
func ReadResult(path string) (*result.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}
