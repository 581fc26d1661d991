package ncclog

import (
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/nccl"
)

// Log is what one NCCL_DEBUG=INFO log says about the job.
type Log struct {
	Path     string
	Versions []string        // every "NCCL version" printed, in order, deduplicated
	Comms    []*LogComm      // one per (process, communicator pointer), in order of appearance
	Colls    int             // COLL lines read
	Skipped  []nccl.LineSkip // lines that looked like NCCL lines but could not be read
	Unknown  []string        // versions outside the range the parser was written for
	PGs      []PGComm        // PyTorch's "ProcessGroupNCCL created ncclComm_" lines
	clean    map[string]bool
	byPtr    map[procPtr]*LogComm
}

// LogComm is one rank's handle on one communicator, from its Init lines.
type LogComm struct {
	Host, Ptr          string
	PID                int64
	Rank, NRanks       int32
	CudaDev, NvmlDev   int32
	BusID              int64  // NCCL's integer bus id, -1 when unknown
	CommID             string // "0x54fe282d32a87d85", "" for split communicators
	Parent             string // parent communicator pointer for split communicators
	Color, Split       int64  // split color and childCount/splitCount, -1 when unknown
	NNodes, LocalRanks int32  // -1 when unknown
	LocalRank          int32
	Ops                map[string]int // COLL lines per operation
	Bytes              map[string]int64
	Line               int64 // line of the first Init line
}

type procPtr struct {
	host string
	pid  int64
	ptr  string
}

var (
	infoRe    = regexp.MustCompile(`([A-Za-z][\w.-]*):(\d+):(\d+) \[(\d+)\] NCCL INFO `)
	versionRe = regexp.MustCompile(`^NCCL version (\d+)\.(\d+)\.(\d+)(\S*)`)
	initRe    = regexp.MustCompile(`^(?:\[Rank \d+\] )?(?:(\w+) )?comm (0x[0-9a-fA-F]+) rank (\d+) nranks (\d+) cudaDev (\d+)(?: nvmlDev (\d+))? busId ([0-9a-fA-F]+)(.*) - Init (START|COMPLETE)`)
	nodesRe   = regexp.MustCompile(`^comm (0x[0-9a-fA-F]+) rank (\d+) nRanks (\d+) nNodes (\d+) localRanks (\d+) localRank (\d+)`)
	// collRe is the COLL line's grammar, which collMatch parses (FuzzCollMatch)
	collRe   = regexp.MustCompile(`^(\w+): opCount ([0-9a-fA-F]+) sendbuff \S+ recvbuff \S+ count (\d+) datatype (\d+) op (\d+) root (-?\d+) comm (0x[0-9a-fA-F]+) \[nranks=(\d+)\] stream (0x[0-9a-fA-F]+|\(nil\))\s*$`)
	commIDRe = regexp.MustCompile(`commId (0x[0-9a-fA-F]+)`)
	parentRe = regexp.MustCompile(`parent (0x[0-9a-fA-F]+)`)
	colorRe  = regexp.MustCompile(`color (-?\d+)`)
	splitRe  = regexp.MustCompile(`(?:childCount|splitCount) (\d+)`)
)

// ParseLog reads an NCCL_DEBUG=INFO log. Lines of other programs, WARN and
// TRACE lines are ignored; NCCL INFO lines spliced into other output (several
// processes appending to one file) are read from their NCCL prefix on, and a
// line that looks like an Init or COLL line but cannot be read is recorded in
// Skipped with its line number.
func ParseLog(path string, r io.Reader) (*Log, error) { return parseLog(path, r, 0) }

// parseLog is ParseLog within the memory budget maxMem (0: none).
func parseLog(path string, r io.Reader, maxMem int64) (*Log, error) {
	l := &Log{Path: path, clean: map[string]bool{}, byPtr: map[procPtr]*LogComm{}}
	if err := nccl.EachLine(r, maxMem, l.line, func(n int64) { l.skip(n, nccl.LongLine) }); err != nil {
		return nil, err
	}
	l.resolveHosts()
	return l, nil
}

func (l *Log) line(n int64, s string) {
	locs := infoMatches(s) // infoRe.FindAllStringSubmatchIndex(s, -1), faster
	if len(locs) == 0 && l.pgLine(n, s) {
		return
	}
	for i, loc := range locs {
		host := s[loc[2]:loc[3]]
		if loc[0] == 0 || strings.HasSuffix(strings.TrimSpace(s[:loc[0]]), "]") {
			l.clean[host] = true
		}
		if i+1 < len(locs) {
			l.skip(n, "NCCL line cut by another NCCL line")
			continue
		}
		pid, _ := strconv.ParseInt(s[loc[4]:loc[5]], 10, 64)
		l.message(n, host, pid, s[loc[1]:])
	}
}

func (l *Log) skip(n int64, reason string) {
	l.Skipped = append(l.Skipped, nccl.LineSkip{Line: n, Reason: reason})
}

// message dispatches one NCCL INFO message.
func (l *Log) message(n int64, host string, pid int64, msg string) {
	switch {
	case strings.HasPrefix(msg, "NCCL version "):
		l.version(n, msg)
	case strings.Contains(msg, " - Init "):
		l.init(n, host, pid, msg)
	case strings.Contains(msg, " nNodes "):
		l.nodes(n, host, pid, msg)
	case strings.Contains(msg, ": opCount "):
		l.coll(n, host, pid, msg)
	}
}

func (l *Log) version(n int64, msg string) {
	m := versionRe.FindStringSubmatch(msg)
	if m == nil {
		l.skip(n, "unreadable NCCL version line")
		return
	}
	v := m[1] + "." + m[2] + "." + m[3] + m[4]
	for _, x := range l.Versions {
		if x == v {
			return
		}
	}
	l.Versions = append(l.Versions, v)
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if major != 2 || minor < MinVersion || minor > MaxVersion {
		l.Unknown = append(l.Unknown, v)
	}
}

// The NCCL 2.x minor versions whose log formats the parser was written for.
const (
	MinVersion = 18
	MaxVersion = 30
)
