package ncclog

import (
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/nccl"
)

func atoi32(s string) int32 {
	n, _ := strconv.ParseInt(s, 10, 32)
	return int32(n)
}

// ranksOf reads a line's rank and nranks, skipping the line (and returning
// false) unless 0 <= rank < nranks <= nccl.MaxRanks.
func (l *Log) ranksOf(n int64, rank, nranks string) (int32, int32, bool) {
	r, err1 := strconv.ParseInt(rank, 10, 64)
	nr, err2 := strconv.ParseInt(nranks, 10, 64)
	if err1 != nil || err2 != nil || nr < 1 || nr > nccl.MaxRanks || r >= nr {
		l.skip(n, "implausible rank "+nccl.Quote(rank)+" of "+nccl.Quote(nranks)+" ranks (at most 2^20): line skipped")
		return 0, 0, false
	}
	return int32(r), int32(nr), true
}

// comm returns the communicator of a process by pointer, creating it.
func (l *Log) comm(n int64, host string, pid int64, ptr string) *LogComm {
	k := procPtr{host, pid, ptr}
	if c := l.byPtr[k]; c != nil {
		return c
	}
	c := &LogComm{Host: host, PID: pid, Ptr: ptr, Rank: -1, NRanks: -1, CudaDev: -1, NvmlDev: -1, BusID: -1,
		Color: -1, Split: -1, NNodes: -1, LocalRanks: -1, LocalRank: -1, Line: n,
		Ops: map[string]int{}, Bytes: map[string]int64{}}
	l.byPtr[k] = c
	l.Comms = append(l.Comms, c)
	return c
}

func (l *Log) init(n int64, host string, pid int64, msg string) {
	m := initRe.FindStringSubmatch(msg)
	if m == nil {
		l.skip(n, "unreadable or truncated Init line")
		return
	}
	rank, nranks, ok := l.ranksOf(n, m[3], m[4])
	if !ok {
		return
	}
	c := l.comm(n, host, pid, m[2])
	c.Rank, c.NRanks, c.CudaDev = rank, nranks, atoi32(m[5])
	if m[6] != "" {
		c.NvmlDev = atoi32(m[6])
	}
	c.BusID, _ = strconv.ParseInt(m[7], 16, 64)
	rest := m[8]
	if id := commIDRe.FindStringSubmatch(rest); id != nil {
		c.CommID = strings.ToLower(id[1])
	}
	if p := parentRe.FindStringSubmatch(rest); p != nil {
		c.Parent = p[1]
	}
	if x := colorRe.FindStringSubmatch(rest); x != nil {
		c.Color, _ = strconv.ParseInt(x[1], 10, 64)
	}
	if x := splitRe.FindStringSubmatch(rest); x != nil {
		c.Split, _ = strconv.ParseInt(x[1], 10, 64)
	}
}

func (l *Log) nodes(n int64, host string, pid int64, msg string) {
	m := nodesRe.FindStringSubmatch(msg)
	if m == nil {
		l.skip(n, "unreadable or truncated nNodes line")
		return
	}
	rank, nranks, ok := l.ranksOf(n, m[2], m[3])
	if !ok {
		return
	}
	c := l.comm(n, host, pid, m[1])
	c.Rank, c.NRanks = rank, nranks
	c.NNodes, c.LocalRanks, c.LocalRank = atoi32(m[4]), atoi32(m[5]), atoi32(m[6])
}

func (l *Log) coll(n int64, host string, pid int64, msg string) {
	m, ok := collMatch(msg)
	if !ok {
		l.skip(n, "unreadable or truncated COLL line")
		return
	}
	nranks, err := strconv.ParseInt(m[8], 10, 64)
	if err != nil || nranks < 1 || nranks > nccl.MaxRanks {
		l.skip(n, "COLL line with an implausible nranks "+nccl.Quote(m[8]))
		return
	}
	l.Colls++
	c := l.comm(n, host, pid, m[7])
	if c.NRanks < 0 {
		c.NRanks = int32(nranks)
	}
	c.Ops[m[1]]++
	count, _ := strconv.ParseInt(m[3], 10, 64)
	c.Bytes[m[1]] += count * int64(DTypeSize(atoi32(m[4])))
}

// resolveHosts repairs host names read from spliced lines: when a host seen
// only after other text ends with a host seen at a line start, the garbage
// before it is dropped.
func (l *Log) resolveHosts() {
	for _, c := range l.Comms {
		if l.clean[c.Host] {
			continue
		}
		best := ""
		for h := range l.clean {
			if strings.HasSuffix(c.Host, h) && len(h) > len(best) {
				best = h
			}
		}
		if best != "" {
			c.Host = best
		}
	}
}

// DTypeName is NCCL's ncclDataType_t as a name; DTypeSize its size in bytes.
func DTypeName(t int32) string {
	names := []string{"int8", "uint8", "int32", "uint32", "int64", "uint64", "fp16", "fp32", "fp64", "bf16", "fp8e4m3", "fp8e5m2"}
	if t >= 0 && int(t) < len(names) {
		return names[t]
	}
	return "unknown"
}

// DTypeSize returns the element size of NCCL data type t (0 when unknown).
func DTypeSize(t int32) int {
	sizes := []int{1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1}
	if t >= 0 && int(t) < len(sizes) {
		return sizes[t]
	}
	return 0
}
