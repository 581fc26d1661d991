package nccl

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ReadDumps reads Flight Recorder dumps from files and directories: in a
// directory, every regular file whose first bytes look like a dump (other
// files, such as logs next to the dumps, are ignored).
func ReadDumps(paths []string) ([]*Dump, error) {
	var out []*Dump
	for _, p := range paths {
		files, err := dumpFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			d, err := ReadDump(f)
			if err != nil {
				return nil, err
			}
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no Flight Recorder dumps in %v", paths)
	}
	return out, nil
}

func dumpFiles(p string) ([]string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("flight recorder: %w", err)
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return nil, fmt.Errorf("flight recorder: %w", err)
	}
	var out []string
	for _, e := range ents {
		f := filepath.Join(p, e.Name())
		if e.Type().IsRegular() && LooksLikeDump(head(f)) {
			out = append(out, f)
		}
	}
	return out, nil
}

// head returns up to 4 KiB from the start of a file, nil on error.
func head(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, 4096)
	n, _ := io.ReadFull(f, b)
	return b[:n]
}
