package flightrec

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/flightrec/pickle"
	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// dumpFrom converts a decoded dump (pickle or JSON values) into an FRDump.
func dumpFrom(v any, maxMem int64) (*model.FRDump, error) {
	d, err := headFrom(v)
	if err != nil {
		return nil, err
	}
	d.Entries, err = entriesFrom(v.(map[string]any)["entries"], maxMem)
	return d, err
}

// headFrom converts all of a decoded dump but its entries.
func headFrom(v any) (*model.FRDump, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("top level is a %s, want a dict", kindOf(v))
	}
	if _, ok := m["entries"]; !ok {
		return nil, errors.New("no 'entries': not a Flight Recorder dump")
	}
	d := &model.FRDump{Version: str(m["version"]), CommVersion: str(m["comm_lib_version"])}
	if d.CommVersion == "" {
		d.CommVersion = str(m["nccl_version"])
	}
	var err error
	if d.Groups, err = groupsFrom(m["pg_config"]); err != nil {
		return nil, fmt.Errorf("pg_config: %w", err)
	}
	if d.Status, err = statusFrom(m["pg_status"]); err != nil {
		return nil, fmt.Errorf("pg_status: %w", err)
	}
	return d, nil
}

func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "dict"
	case []any, pickle.Tuple:
		return "list"
	case nil:
		return "None"
	}
	return fmt.Sprintf("%T", v)
}

func groupsFrom(v any) (map[string]model.FRGroup, error) {
	m, ok := v.(map[string]any)
	if !ok && v != nil {
		return nil, fmt.Errorf("a %s, want a dict", kindOf(v))
	}
	out := map[string]model.FRGroup{}
	for name, c := range m {
		cm, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("group %s is a %s", nccl.Quote(name), kindOf(c))
		}
		ranks, err := rankList(cm["ranks"])
		if err != nil {
			return nil, fmt.Errorf("group %s: %w", nccl.Quote(name), err)
		}
		out[name] = model.FRGroup{Name: cmpOr(str(cm["name"]), name), Desc: str(cm["desc"]), Ranks: ranks}
	}
	return out, nil
}

// rankList reads "[0, 1]" (the FR form) or a list of integers.
func rankList(v any) ([]int32, error) {
	if s, ok := v.(string); ok {
		var out []int32
		for f := range strings.FieldsFuncSeq(strings.Trim(s, "[] "), func(r rune) bool { return r == ',' || r == ' ' }) {
			n, err := strconv.ParseInt(f, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("ranks %s: %s is not a rank number", nccl.Quote(s), nccl.Quote(f))
			}
			out = append(out, int32(n))
		}
		return out, nil
	}
	l, ok := list(v)
	if !ok {
		return nil, fmt.Errorf("ranks is a %s", kindOf(v))
	}
	out := make([]int32, 0, len(l))
	for _, x := range l {
		n, ok := integer(x)
		if !ok || n < 0 || n > math.MaxInt32 {
			return nil, fmt.Errorf("rank %s is not a rank number", brief(x))
		}
		out = append(out, int32(n))
	}
	return out, nil
}

func statusFrom(v any) (map[string]model.FRGroupStatus, error) {
	m, _ := v.(map[string]any)
	out := map[string]model.FRGroupStatus{}
	for id, s := range m {
		sm, ok := s.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("group %s is a %s", nccl.Quote(id), kindOf(s))
		}
		out[id] = model.FRGroupStatus{Enqueued: intOr(sm["last_enqueued_collective"], -1),
			Started: intOr(sm["last_started_collective"], -1), Completed: intOr(sm["last_completed_collective"], -1)}
	}
	return out, nil
}

// memEvery is how many entries are converted between checks of the memory
// budget.
var memEvery = 4096

// entriesFrom converts the entries, checking the memory budget maxMem
// (0: none) every memEvery entries.
func entriesFrom(v any, maxMem int64) ([]model.FREntry, error) {
	l, ok := list(v)
	if !ok {
		return nil, fmt.Errorf("entries is a %s, want a list", kindOf(v))
	}
	out := make([]model.FREntry, 0, len(l))
	for i, x := range l {
		e, err := entryAt(i, x, maxMem)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return inRecordOrder(out), nil
}

// entryAt converts entry i, checking the memory budget maxMem (0: none)
// after every memEvery entries.
func entryAt(i int, x any, maxMem int64) (model.FREntry, error) {
	e, err := entryFrom(x)
	if err == nil && (i+1)%memEvery == 0 {
		err = source.CheckMemory(maxMem)
	}
	if err != nil {
		return e, fmt.Errorf("entry %d: %w", i, err)
	}
	return e, nil
}

// inRecordOrder sorts entries by record id, stably.
func inRecordOrder(entries []model.FREntry) []model.FREntry {
	slices.SortStableFunc(entries, func(a, b model.FREntry) int { return int(min(max(a.RecordID-b.RecordID, -1), 1)) })
	return entries
}

func entryFrom(v any) (model.FREntry, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return model.FREntry{}, fmt.Errorf("a %s, want a dict", kindOf(v))
	}
	pg, _ := list(m["process_group"])
	if len(pg) < 1 {
		return model.FREntry{}, errors.New("no process_group")
	}
	e := model.FREntry{RecordID: intOr(m["record_id"], -1), PGID: str(m["pg_id"]), PGName: str(pg[0]),
		CollSeq: intOr(m["collective_seq_id"], -1), P2PSeq: intOr(m["p2p_seq_id"], -1), OpID: intOr(m["op_id"], -1),
		Name: str(m["profiling_name"]), State: str(m["state"]), Created: intOr(m["time_created_ns"], 0),
		Duration: floatOr(m["duration_ms"], -1), IsP2P: m["is_p2p"] == true, Started: intOr(m["time_discovered_started_ns"], 0)}
	if len(pg) > 1 {
		e.PGDesc = str(pg[1])
	}
	e.InSizes, e.OutSizes = sizes(m["input_sizes"]), sizes(m["output_sizes"])
	e.InDTypes, e.OutDTypes = strs(m["input_dtypes"]), strs(m["output_dtypes"])
	if strings.HasPrefix(e.Name, "nccl:send") || strings.HasPrefix(e.Name, "nccl:recv") {
		e.IsP2P = true
	}
	return e, nil
}

func list(v any) ([]any, bool) {
	switch l := v.(type) {
	case []any:
		return l, true
	case pickle.Tuple:
		return l, true
	}
	return nil, false
}

func str(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case int64:
		return strconv.FormatInt(s, 10)
	case json.Number:
		return s.String()
	}
	return ""
}

func integer(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	case string:
		i, err := strconv.ParseInt(n, 10, 64)
		return i, err == nil
	case float64:
		return int64(n), n == math.Trunc(n) && math.Abs(n) < 1<<63
	}
	return 0, false
}

func intOr(v any, def int64) int64 {
	if n, ok := integer(v); ok {
		return n
	}
	return def
}

// floatOr is v as a finite number, else def (a NaN or infinite duration
// is as good as none).
func floatOr(v any, def float64) float64 {
	f := def
	switch n := v.(type) {
	case float64:
		f = n
	case int64:
		f = float64(n)
	case json.Number:
		if x, err := n.Float64(); err == nil {
			f = x
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return def
	}
	return f
}

func sizes(v any) [][]int64 {
	l, _ := list(v)
	out := make([][]int64, 0, len(l))
	for _, x := range l {
		dims, _ := list(x)
		s := make([]int64, 0, len(dims))
		for _, d := range dims {
			s = append(s, intOr(d, -1))
		}
		out = append(out, s)
	}
	return out
}

func strs(v any) []string {
	l, _ := list(v)
	out := make([]string, 0, len(l))
	for _, x := range l {
		out = append(out, str(x))
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
