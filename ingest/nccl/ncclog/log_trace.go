package ncclog

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/model"
)

// device is one process's GPU: one global rank.
type device struct {
	host string
	pid  int64
	dev  int32
}

func (c *LogComm) device() device { return device{c.Host, c.PID, c.CudaDev} }

// GlobalRanks maps every device the logs show to a global rank: the ranks
// of the largest communicator that has a commId (the world), then devices
// outside it numbered after, in host, pid, device order.
func GlobalRanks(logs []*Log) map[device]int32 {
	out := map[device]int32{}
	world := worldID(logs)
	next := int32(0)
	for _, l := range logs {
		for _, c := range l.Comms {
			if c.CommID == world && world != "" && c.CudaDev >= 0 {
				out[c.device()] = c.Rank
				next = max(next, c.Rank+1)
			}
		}
	}
	for _, d := range sortedDevices(logs) {
		if _, ok := out[d]; !ok {
			out[d] = next
			next++
		}
	}
	return out
}

func worldID(logs []*Log) string {
	best, size := "", int32(0)
	for _, l := range logs {
		for _, c := range l.Comms {
			if c.CommID != "" && (c.NRanks > size || c.NRanks == size && c.CommID < best) {
				best, size = c.CommID, c.NRanks
			}
		}
	}
	return best
}

func sortedDevices(logs []*Log) []device {
	seen := map[device]bool{}
	var out []device
	for _, l := range logs {
		for _, c := range l.Comms {
			if d := c.device(); c.CudaDev >= 0 && !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	slices.SortFunc(out, func(a, b device) int {
		return cmp.Or(cmp.Compare(a.host, b.host), cmp.Compare(a.pid, b.pid), cmp.Compare(a.dev, b.dev))
	})
	return out
}

// CommKey is the job-wide identity of a communicator: HashKey(commId) for
// communicators created from a unique id, and for split ones the parent's
// key plus the split count and color (equal on every member).
func CommKey(l *Log, c *LogComm) string {
	return commKey(l, c, 0)
}

func commKey(l *Log, c *LogComm, depth int) string {
	if c.CommID != "" {
		return nccl.HexKey(c.CommID)
	}
	parent := l.byPtr[procPtr{c.Host, c.PID, c.Parent}]
	if c.Parent == "" || parent == nil || depth > 16 {
		return fmt.Sprintf("nccl:%s:%d:%s", c.Host, c.PID, c.Ptr)
	}
	return fmt.Sprintf("%s/split%d:color%d", commKey(l, parent, depth+1), c.Split, c.Color)
}

// BusIDString formats NCCL's integer bus id as "0000:17:00.0".
func BusIDString(id int64) string {
	if id < 0 {
		return ""
	}
	return fmt.Sprintf("%04x:%02x:%02x.%x", id>>20, (id>>12)&0xff, (id>>4)&0xff, id&0xf)
}

// LogTrace turns logs into a trace of ranks and communicators (no events).
func LogTrace(logs []*Log) *model.Trace {
	t := &model.Trace{}
	ranks := GlobalRanks(logs)
	for i, l := range logs {
		t.Sources = append(t.Sources, model.Source{Path: l.Path, Format: "nccl-log", Version: l.Version()})
		for _, s := range l.Skipped {
			t.Skip(l.Path, s.Line, "line", "%s", s.Reason)
		}
		for _, c := range l.Comms {
			addLogComm(t, l, c, ranks, int32(i))
		}
	}
	return t
}

func addLogComm(t *model.Trace, l *Log, c *LogComm, ranks map[device]int32, src int32) {
	if c.CudaDev < 0 {
		return // COLL lines of a communicator whose Init lines are not in the log
	}
	g := ranks[c.device()]
	if t.FindRank(g) < 0 {
		t.AddRank(model.Rank{Rank: g, Host: c.Host, PID: c.PID, LocalGPU: c.CudaDev, BusID: BusIDString(c.BusID),
			Coord: model.UnknownCoord, Source: src})
	}
	if pg, ok := l.pgOf(c); ok {
		t.AddComm(nccl.NamedComm(pg.Name, pg.Name, pg.Desc, []int32{g}))
		return
	}
	t.AddComm(model.Communicator{ID: CommKey(l, c), Members: []int32{g}})
}

// Version is the first NCCL version the log prints, "" when none.
func (l *Log) Version() string {
	if len(l.Versions) == 0 {
		return ""
	}
	return l.Versions[0]
}
