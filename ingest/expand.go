package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/model"
)

// inputs are the expanded command-line paths.
type inputs struct {
	files    []string     // regular files, in a stable order
	datasets []string     // dataset directories
	skipped  []model.Skip // what the walk passed over
}

// expand turns paths into files and datasets. A directory holding
// manifest.json is a dataset; other directories are walked recursively,
// skipping hidden entries and caches (.tpptrace-cache, x.json.tpptrace-cache) and datasets nested
// inside (recorded). A path that does not exist is an error.
func expand(paths []string) (inputs, error) {
	var in inputs
	for _, p := range paths {
		st, err := os.Stat(p)
		switch {
		case err != nil:
			return in, inputError(p, err)
		case st.IsDir() && dataset.IsDataset(p):
			in.datasets = append(in.datasets, p)
		case st.IsDir():
			if err := in.walk(p); err != nil {
				return in, err
			}
		default:
			in.files = append(in.files, p)
		}
	}
	return in, nil
}

func (in *inputs) walk(root string) error {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			in.skipped = append(in.skipped, model.Skip{Source: p, Offset: -1, Reason: "cannot read: " + err.Error(), Count: 1})
			return nil
		}
		if p != root && (strings.HasPrefix(d.Name(), ".") || strings.HasSuffix(d.Name(), CacheDirName)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() && p != root && dataset.IsDataset(p) {
			in.skipped = append(in.skipped, model.Skip{Source: p, Offset: -1, Count: 1,
				Reason: "a dataset inside a trace directory is not read; give it on its own"})
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	in.files = append(in.files, files...)
	return err
}

// inputError names the input and why it cannot be used, without the
// system call ("run/: no such file or directory").
func inputError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return fmt.Errorf("%s: %w", path, err)
}
