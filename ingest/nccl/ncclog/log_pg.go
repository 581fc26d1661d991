package ncclog

import (
	"regexp"
	"strconv"
	"strings"
)

// PGComm is PyTorch's record that a process group created an NCCL
// communicator (TORCH_CPP_LOG_LEVEL=INFO): "[PG ID 1 PG GUID 9(desc) Rank 0]
// ProcessGroupNCCL created ncclComm_ 0x… on CUDA device: 0", or the older
// "[PG 9 (desc) Rank 0] …". The pointer is NCCL's "comm %p".
type PGComm struct {
	TID  int64  // glog thread id (the process id on the main thread), -1 when absent
	Name string // process-group name (GUID), as Kineto and Flight Recorder name it
	Desc string // "" when PyTorch left it undefined
	Ptr  string
	Line int64
}

var pgRe = regexp.MustCompile(`(?:(\d+) [\w.]+:\d+\] )?\[PG (?:ID \d+ PG GUID )?([^\s(\]]+) ?(?:\(([^)]*)\))? Rank \d+\] ProcessGroupNCCL created ncclComm_ (0x[0-9a-fA-F]+)`)

// pgLine reads a ProcessGroupNCCL creation line; it reports whether s was one.
func (l *Log) pgLine(n int64, s string) bool {
	if !strings.Contains(s, "ProcessGroupNCCL created ncclComm_") {
		return false
	}
	m := pgRe.FindStringSubmatch(s)
	if m == nil {
		l.skip(n, "unreadable ProcessGroupNCCL line")
		return true
	}
	tid := int64(-1)
	if m[1] != "" {
		tid, _ = strconv.ParseInt(m[1], 10, 64)
	}
	desc := m[3]
	if desc == "undefined" {
		desc = ""
	}
	l.PGs = append(l.PGs, PGComm{TID: tid, Name: m[2], Desc: desc, Ptr: strings.ToLower(m[4]), Line: n})
	return true
}

// pgOf returns the process group that created communicator c: the PG line
// with c's pointer, from c's process when the line says which.
func (l *Log) pgOf(c *LogComm) (PGComm, bool) {
	var found []PGComm
	for _, p := range l.PGs {
		if p.Ptr == strings.ToLower(c.Ptr) && (p.TID < 0 || p.TID == c.PID) {
			found = append(found, p)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return PGComm{}, false
}
