package flightrec

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// ReadDumps reads Flight Recorder dumps from files and directories: in a
// directory, every regular file whose first bytes look like a dump (other
// files, such as logs next to the dumps, are ignored).
func ReadDumps(paths []string) ([]*model.FRDump, error) {
	var out []*model.FRDump
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
	files, _, err := dumpFilesSkipping(p)
	return files, err
}

// dumpFilesSkipping is dumpFiles that also returns the files of a
// directory that were meant as dumps but cannot be: empty files, and
// pickles that are not dumps.
func dumpFilesSkipping(p string) ([]string, []model.FRSkip, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, nil, fmt.Errorf("flight recorder: %w", err)
	}
	if !st.IsDir() {
		return []string{p}, nil, nil
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return nil, nil, fmt.Errorf("flight recorder: %w", err)
	}
	var out []string
	var skips []model.FRSkip
	for _, e := range ents {
		f := filepath.Join(p, e.Name())
		if !e.Type().IsRegular() && e.Type()&os.ModeSymlink == 0 {
			continue
		}
		switch h := head(f); {
		case LooksLikeDump(h):
			out = append(out, f)
		case len(h) == 0:
			skips = append(skips, model.FRSkip{Path: f, Rank: nameRank(f), Reason: "an empty file"})
		case h[0] == 0x80:
			skips = append(skips, model.FRSkip{Path: f, Rank: nameRank(f), Reason: "a pickle that is not a Flight Recorder dump"})
		}
	}
	return out, skips, nil
}

// ReadDumpsSkipping is ReadDumps that skips the dumps that cannot be read,
// returning why, as long as one can: one bad dump does not hide the rest.
// Past the memory budget maxMem (0: none) it stops with an error naming
// the dump it was reading (source.ErrMemoryBudget).
func ReadDumpsSkipping(paths []string, maxMem int64) ([]*model.FRDump, []model.FRSkip, error) {
	return scanDumpsSkipping(paths, maxMem, true, nil)
}

// scanDumpsSkipping is ReadDumpsSkipping reading each dump with scanDump
// (keep as there) and, when each is not nil, handing each dump read to it
// at once (with whether it is lazy), before the next is read.
func scanDumpsSkipping(paths []string, maxMem int64, keep bool, each func(*model.FRDump, bool) error) ([]*model.FRDump, []model.FRSkip, error) {
	var out []*model.FRDump
	var skips []model.FRSkip
	var errs []error
	for _, p := range paths {
		files, bad, err := dumpFilesSkipping(p)
		if err != nil {
			return nil, nil, err
		}
		skips = append(skips, bad...)
		for _, f := range files {
			d, lazy, err := scanDump(f, maxMem, keep)
			if errors.Is(err, source.ErrMemoryBudget) {
				return nil, nil, err
			}
			if err != nil {
				reason := strings.TrimPrefix(err.Error(), f+": ") // the path is the skip's own
				skips, errs = append(skips, model.FRSkip{Path: f, Rank: nameRank(f), Reason: reason}), append(errs, err)
				continue
			}
			if each != nil {
				if err := each(d, lazy); err != nil {
					return nil, nil, err
				}
			}
			out = append(out, d)
		}
	}
	switch {
	case len(out) == 0 && len(errs) > 0:
		return nil, nil, errors.Join(errs...)
	case len(out) == 0:
		return nil, nil, fmt.Errorf("no Flight Recorder dumps in %v", paths)
	}
	return out, skips, nil
}

// nameRank is the rank a dump's file name ends with, -1 when none.
func nameRank(path string) int32 {
	m := trailingNum.FindStringSubmatch(filepath.Base(path))
	if m == nil {
		return -1
	}
	n, err := strconv.ParseInt(m[1], 10, 32)
	if err != nil {
		return -1
	}
	return int32(n)
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
