package model

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// FRDump is one rank's PyTorch Flight Recorder dump as ingest/flightrec
// decodes it (pickle or JSON): plain data that analysis/hang matches
// across ranks.
type FRDump struct {
	Path        string
	Rank        int32
	Version     string             // FR format version ("2.9")
	CommVersion string             // NCCL version ("2.27.3")
	Groups      map[string]FRGroup // by process-group name
	Status      map[string]FRGroupStatus
	Entries     []FREntry // in record order
}

// FRGroup is one pg_config record: a process group.
type FRGroup struct {
	Name  string
	Desc  string
	Ranks []int32 // global ranks
}

// FRGroupStatus is one pg_status record (FRDump.Status is keyed by the
// rank-local pg id): the last collective sequence number enqueued, started
// and completed on this rank (-1 when none).
type FRGroupStatus struct{ Enqueued, Started, Completed int64 }

// FREntry is one Flight Recorder entry.
type FREntry struct {
	RecordID  int64
	PGID      string // rank-local process-group id
	PGName    string
	PGDesc    string
	CollSeq   int64
	P2PSeq    int64
	OpID      int64
	Name      string  // profiling name: nccl:all_reduce, nccl:send 0->3
	State     string  // scheduled, started, completed
	Created   int64   // epoch ns
	Started   int64   // time_discovered_started_ns (watchdog discovery), epoch ns, 0 when absent
	Duration  float64 // ms, -1 when not recorded
	InSizes   [][]int64
	OutSizes  [][]int64
	InDTypes  []string
	OutDTypes []string
	IsP2P     bool
}

// FRSkip is a file given as, or found among, the dumps that could not be
// used.
type FRSkip struct {
	Path   string `json:"path"`
	Rank   int32  `json:"rank"` // from the file name, -1 when it names none
	Reason string `json:"reason"`
}

// GroupNames returns the names of the dump's process groups in
// CompareFRNames order.
func (d *FRDump) GroupNames() []string {
	out := make([]string, 0, len(d.Groups))
	for k := range d.Groups {
		out = append(out, k)
	}
	slices.SortFunc(out, CompareFRNames)
	return out
}

// CompareFRNames orders process-group names: numeric names numerically,
// others after, by text.
func CompareFRNames(a, b string) int {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	switch {
	case errA == nil && errB == nil:
		return cmp.Compare(x, y)
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return strings.Compare(a, b)
}
