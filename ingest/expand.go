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
	"github.com/tpptrace/tpptrace/model"
)

// inputs are the expanded command-line paths.
type inputs struct {
	files    []string     // regular files, in a stable order
	datasets []string     // dataset directories
	sharded  []string     // directories of shard datasets (IsSharded)
	skipped  []model.Skip // what the walk passed over
}

// expand turns paths into files and datasets. A directory holding
// manifest.json is a dataset, one holding shard=KKKKK/shard.json a sharded
// dataset; other directories are walked recursively,
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
		case st.IsDir() && IsSharded(p):
			in.sharded = append(in.sharded, p)
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

// walk collects the files under root, following symbolic links (to files
// and directories, root included) and recording, not following, a link
// back into a directory already walked (a loop) or to a file already
// taken.
func (in *inputs) walk(root string) error {
	w := walker{in: in, dirs: map[string]string{}, files: map[string]taken{}}
	if err := w.dir(root); err != nil {
		return err
	}
	sort.Strings(w.out)
	in.files = append(in.files, w.out...)
	return nil
}

// walker is one walk: the directories read and the files taken, by their
// real paths.
type walker struct {
	in    *inputs
	dirs  map[string]string // real path -> the path first read by
	files map[string]taken  // real path -> the file taken
	out   []string
}

func (w *walker) skip(p, reason string) {
	w.in.skipped = append(w.in.skipped, model.Skip{Source: p, Offset: -1, Reason: reason, Count: 1})
}

// dir walks directory p.
func (w *walker) dir(p string) error {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		w.skip(p, "cannot read: "+err.Error())
		return nil
	}
	if first, seen := w.dirs[real]; seen {
		w.skip(p, "a symbolic link loop or a second link: the directory was already read as "+first)
		return nil
	}
	w.dirs[real] = p
	entries, err := os.ReadDir(p)
	if err != nil {
		w.skip(p, "cannot read: "+err.Error())
	}
	for _, d := range entries {
		if strings.HasPrefix(d.Name(), ".") || strings.HasSuffix(d.Name(), CacheDirName) {
			continue
		}
		if err := w.entry(filepath.Join(p, d.Name()), d); err != nil {
			return err
		}
	}
	return nil
}

// entry takes one directory entry, following a symbolic link.
func (w *walker) entry(p string, d fs.DirEntry) error {
	typ := d.Type()
	if typ&fs.ModeSymlink != 0 {
		st, err := os.Stat(p)
		if err != nil {
			w.skip(p, "a symbolic link that cannot be followed: "+sysReason(err))
			return nil
		}
		typ = st.Mode().Type()
	}
	switch {
	case typ.IsDir() && dataset.IsDataset(p):
		w.skip(p, "a dataset inside a trace directory is not read; give it on its own")
	case typ.IsDir():
		return w.dir(p)
	case typ.IsRegular():
		w.file(p, d.Type()&fs.ModeSymlink != 0)
	}
	return nil
}

// file takes a regular file once, however many links reach it: by its
// own name when a link and the file itself are both in the walk.
func (w *walker) file(p string, link bool) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		w.skip(p, "cannot read: "+sysReason(err))
		return
	}
	first, seen := w.files[real]
	switch {
	case !seen:
		w.files[real] = taken{len(w.out), link}
		w.out = append(w.out, p)
	case first.link && !link:
		w.skip(w.out[first.i], "a symbolic link to "+p+", read under that name")
		w.out[first.i], w.files[real] = p, taken{first.i, false}
	default:
		w.skip(p, "the same file as "+w.out[first.i]+" (a symbolic link): read once")
	}
}

// taken is a file the walk took: its index in out, and whether by a link.
type taken struct {
	i    int
	link bool
}

// sysReason is the error without the operation and path ("no such file or
// directory").
func sysReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
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
