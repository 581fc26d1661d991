package kineto

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// combine merges the per-file parts: failed files become skip records,
// process groups whose rank lists disagree across files get distinct IDs,
// and communicator members without a trace are dropped (and recorded, as
// skipped input and as the trace's Absent members).
func combine(results []fileResult) (*model.Trace, error) {
	var parts []*model.Trace
	var errs []error
	failed := &model.Trace{}
	for _, r := range results {
		if r.err != nil {
			errs = append(errs, r.err)
			failed.Skipped = append(failed.Skipped, skipOf(r.path, r.err))
			continue
		}
		parts = append(parts, r.tr)
	}
	if len(parts) == 0 {
		if len(errs) == 0 {
			return nil, errors.New("kineto: no input files")
		}
		return nil, errors.Join(errs...)
	}
	renameComms(results)
	out, err := model.MergeOwned(append(parts, failed)...)
	if err != nil {
		return nil, err
	}
	trimMembers(out)
	return out, nil
}

// notReadPrefix starts the reason of a file that could not be read.
const notReadPrefix = "file not read: "

// skipOf records a file that could not be read.
func skipOf(path string, err error) model.Skip {
	s := model.Skip{Source: path, Offset: -1, Reason: notReadPrefix + err.Error(), Count: 1}
	var fe *source.FileError
	if errors.As(err, &fe) && fe.Offset >= 0 {
		s.Offset, s.Unit = fe.Offset, fe.Unit
	}
	return s
}

// renameComms gives a process group name used with different rank lists
// one ID per list ("3@0,1" and "3@2,3"). A file that does not state the
// list joins the one list that holds its rank, if there is exactly one.
func renameComms(results []fileResult) {
	variants := commVariants(results)
	for _, r := range results {
		if r.tr == nil {
			continue
		}
		for i := range r.tr.Comms {
			c := &r.tr.Comms[i]
			c.ID = commID(variants, c.Name, r.lists[c.Name], c.Members)
		}
	}
}

// commVariants lists, per process group name, the distinct rank lists the
// files state, in file order.
func commVariants(results []fileResult) map[string][]string {
	variants := map[string][]string{}
	for _, r := range results {
		for name, ranks := range r.lists {
			k := ranksKey(ranks)
			if !slices.Contains(variants[name], k) {
				variants[name] = append(variants[name], k)
			}
		}
	}
	return variants
}

// commID is the ID of a file's process group: its name, or with the rank
// list it belongs to when the files disagree on the name's list.
func commID(variants map[string][]string, name string, stated, members []int32) string {
	if vs := variants[name]; len(vs) > 1 {
		return name + "@" + pickVariant(vs, stated, members)
	}
	return name
}

func ranksKey(ranks []int32) string {
	s := make([]string, len(ranks))
	for i, r := range ranks {
		s[i] = fmt.Sprint(r)
	}
	return strings.Join(s, ",")
}

// pickVariant returns the rank list key a file's communicator belongs to.
func pickVariant(variants []string, stated, members []int32) string {
	if stated != nil {
		return ranksKey(stated)
	}
	var match []string
	for _, v := range variants {
		if containsAll(","+v+",", members) {
			match = append(match, v)
		}
	}
	if len(match) == 1 {
		return match[0]
	}
	return "?" + ranksKey(members)
}

func containsAll(list string, ranks []int32) bool {
	for _, r := range ranks {
		if !strings.Contains(list, fmt.Sprintf(",%d,", r)) {
			return false
		}
	}
	return true
}

// trimMembers drops communicator members that have no rank in the trace
// (their files were not given), so that the trace validates; each such
// communicator is recorded with the ranks it lost.
func trimMembers(t *model.Trace) {
	for i := range t.Comms {
		c := &t.Comms[i]
		var keep, lost []int32
		for _, m := range c.Members {
			if t.FindRank(m) >= 0 {
				keep = append(keep, m)
			} else {
				lost = append(lost, m)
			}
		}
		if len(lost) > 0 {
			c.Members = keep
			t.AddAbsent(c.ID, lost)
			t.Skipped = append(t.Skipped, model.Skip{Source: commSource(t), Offset: -1, Count: int64(len(lost)),
				Reason: fmt.Sprintf("process group %q lists ranks %s that have no trace; dropped from its members", c.ID, ranksKey(lost))})
		}
	}
}

func commSource(t *model.Trace) string {
	if len(t.Sources) == 0 {
		return ""
	}
	return t.Sources[0].Path
}
