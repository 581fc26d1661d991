package ingest

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/model"
)

// shardVersion is the version of shard.json this build writes. Version 2
// holds each distinct process-group rank list once (rank_lists), the files
// naming theirs by index; version 1 (no "version" key) held every file's
// lists in full, which at R ranks is R² numbers a job (every file lists
// the world group). Both are read.
const shardVersion = 2

// shardFile is one Kineto file of shard.json: its path and its process
// groups' rank lists, by index into rank_lists (version 2) or in full
// (version 1).
type shardFile struct {
	Path   string             `json:"path"`
	Groups map[string]int     `json:"groups,omitempty"`
	Lists  map[string][]int32 `json:"lists,omitempty"`
}

// listIntern holds one copy of each distinct rank list (by content). The
// lists it returns are shared and must not be modified in place.
type listIntern struct {
	index map[string]int // little-endian bytes of a list -> its index in lists
	lists [][]int32
	key   []byte
}

func newListIntern() *listIntern { return &listIntern{index: map[string]int{}} }

// add returns the index of r's copy, adding r (not copied) the first time.
func (t *listIntern) add(r []int32) int {
	t.key = t.key[:0]
	for _, x := range r {
		t.key = binary.LittleEndian.AppendUint32(t.key, uint32(x))
	}
	if i, ok := t.index[string(t.key)]; ok {
		return i
	}
	t.index[string(t.key)] = len(t.lists)
	t.lists = append(t.lists, r)
	return len(t.lists) - 1
}

// get returns the shared copy of r; nil stays nil.
func (t *listIntern) get(r []int32) []int32 {
	if r == nil {
		return nil
	}
	return t.lists[t.add(r)]
}

// packFiles is the files' part of a version 2 shard.json: every distinct
// list once, in order of first use (files in order, groups by name), and
// each file's groups by index.
func packFiles(files []kineto.FileLists) ([][]int32, []shardFile) {
	in := newListIntern()
	out := make([]shardFile, len(files))
	for i, f := range files {
		out[i].Path = f.Path
		if len(f.Lists) == 0 {
			continue
		}
		out[i].Groups = make(map[string]int, len(f.Lists))
		names := make([]string, 0, len(f.Lists))
		for name := range f.Lists {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			out[i].Groups[name] = nilList
			if r := f.Lists[name]; r != nil {
				out[i].Groups[name] = in.add(r)
			}
		}
	}
	return in.lists, out
}

// nilList is the index of a group whose list is nil (version 1: null).
const nilList = -1

// unpackFiles is the inverse of packFiles, for shard.json of either
// version; equal lists come back as one shared copy (in), across the
// shards that share in.
func unpackFiles(m *shardMeta, in *listIntern) ([]kineto.FileLists, error) {
	out := make([]kineto.FileLists, len(m.Files))
	for i, f := range m.Files {
		out[i].Path = f.Path
		if len(f.Groups) > 0 && m.Version < 2 || len(f.Lists) > 0 && m.Version >= 2 {
			return nil, fmt.Errorf("file %q: rank lists of the wrong version of %s", f.Path, ShardFile)
		}
		if len(f.Lists)+len(f.Groups) > 0 {
			out[i].Lists = make(map[string][]int32, len(f.Lists)+len(f.Groups))
		}
		for name, r := range f.Lists {
			out[i].Lists[name] = in.get(r)
		}
		for name, j := range f.Groups {
			if j == nilList {
				out[i].Lists[name] = nil
				continue
			}
			if j < 0 || j >= len(m.RankLists) {
				return nil, fmt.Errorf("file %q: process group %q names rank list %d of %d", f.Path, name, j, len(m.RankLists))
			}
			out[i].Lists[name] = in.get(m.RankLists[j])
		}
	}
	return out, nil
}

// internComms makes t's communicators share one copy of each distinct
// member list (in): before the join a shard holds each file's copy of
// every process group, the world group's R ranks in each of R files.
func internComms(t *model.Trace, in *listIntern) {
	for i := range t.Comms {
		t.Comms[i].Members = in.get(t.Comms[i].Members)
	}
}
