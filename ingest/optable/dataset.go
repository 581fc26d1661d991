package optable

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// DatasetName is the op table's file inside a dataset directory that
// `tpptrace ingest` wrote from it.
const DatasetName = "trace-optable.parquet"

// Resolve returns the op table path names: the file itself, or the op
// table inside a dataset directory ingest made of one; ok false for
// anything else.
func Resolve(path string) (string, bool) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		p := filepath.Join(path, DatasetName)
		_, err := os.Stat(p)
		return p, err == nil
	}
	return path, Sniff(path)
}

// Store checks that path decodes as an op table and copies it into the
// dataset directory dir (created), as DatasetName.
func Store(path, dir string) error {
	if _, err := ReadFile(path); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	in, err := os.Open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(dir, ".optable-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	_, err = io.Copy(tmp, in)
	if e := tmp.Close(); err == nil {
		err = e
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, DatasetName))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", dir, err)
	}
	return nil
}
