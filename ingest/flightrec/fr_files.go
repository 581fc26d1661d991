package flightrec

import (
	"context"
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
	return scanDumpsSkipping(paths, maxMem, 0, true, nil)
}

// scanDumpsSkipping is ReadDumpsSkipping reading each dump with scanDump
// (keep as there) on up to workers goroutines (0: GOMAXPROCS) and, when
// each is not nil, handing each dump read to it (with whether it is lazy)
// in path order, before the next is handed on: at most workers dumps'
// entries are held, what workers give is what one gives.
func scanDumpsSkipping(paths []string, maxMem int64, workers int, keep bool, each func(*model.FRDump, bool) error) ([]*model.FRDump, []model.FRSkip, error) {
	items := dumpItems(paths)
	sc := dumpScan{each: each}
	err := source.InOrder(context.Background(), len(items), workers, func(i int) (scanned, error) {
		return items[i].scan(maxMem, keep), nil
	}, func(i int, s scanned) error { return sc.use(items[i], s) })
	if err != nil {
		return nil, nil, err
	}
	switch {
	case len(sc.out) == 0 && len(sc.errs) > 0:
		return nil, nil, errors.Join(sc.errs...)
	case len(sc.out) == 0:
		return nil, nil, fmt.Errorf("no Flight Recorder dumps in %v", paths)
	}
	return sc.out, sc.skips, nil
}

// dumpScan is what scanDumpsSkipping gathers, in path order: the dumps
// read, the skips and the errors of the dumps skipped.
type dumpScan struct {
	each  func(*model.FRDump, bool) error
	out   []*model.FRDump
	skips []model.FRSkip
	errs  []error
}

// use takes one item's listing or scan; its error ends the read.
func (sc *dumpScan) use(it dumpItem, s scanned) error {
	switch {
	case it.file == "" && it.err != nil:
		return it.err
	case it.file == "":
		sc.skips = append(sc.skips, it.bad...)
		return nil
	case errors.Is(s.err, source.ErrMemoryBudget):
		return s.err
	case s.err != nil:
		reason := strings.TrimPrefix(s.err.Error(), it.file+": ") // the path is the skip's own
		sc.skips = append(sc.skips, model.FRSkip{Path: it.file, Rank: nameRank(it.file), Reason: reason})
		sc.errs = append(sc.errs, s.err)
		return nil
	}
	if sc.each != nil {
		if err := sc.each(s.d, s.lazy); err != nil {
			return err
		}
	}
	sc.out = append(sc.out, s.d)
	return nil
}

// dumpItem is one dump file to scan or, with file empty, what listing a
// path gave: the files of a directory meant as dumps that cannot be, or
// the error that ends the read there.
type dumpItem struct {
	file string
	bad  []model.FRSkip
	err  error
}

// scanned is one dump file's scan.
type scanned struct {
	d    *model.FRDump
	lazy bool
	err  error
}

// dumpItems lists every path (dumpFilesSkipping), up to the first that
// cannot be listed: each path's listing, then its files.
func dumpItems(paths []string) []dumpItem {
	var items []dumpItem
	for _, p := range paths {
		files, bad, err := dumpFilesSkipping(p)
		items = append(items, dumpItem{bad: bad, err: err})
		if err != nil {
			break
		}
		for _, f := range files {
			items = append(items, dumpItem{file: f})
		}
	}
	return items
}

// scan reads the item's dump (nothing for a listing).
func (it dumpItem) scan(maxMem int64, keep bool) scanned {
	if it.file == "" {
		return scanned{}
	}
	d, lazy, err := scanDump(it.file, maxMem, keep)
	return scanned{d: d, lazy: lazy, err: err}
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
