package nsys

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/source"
)

var (
	rankInName  = regexp.MustCompile(`(?i)rank[_-]?(\d+)`)
	trailingNum = regexp.MustCompile(`[_.-](\d+)$`)
)

// baseName strips the directory and the export extensions.
func baseName(path string) string {
	b := filepath.Base(path)
	for _, ext := range []string{".sqlite", ".nsys-rep", ".qdrep"} {
		b = strings.TrimSuffix(b, ext)
	}
	return b
}

// fileRank reads a rank from names like report_rank3, report_3 (-o
// report_%q{RANK}); -1 when none.
func fileRank(path string) int32 {
	b := baseName(path)
	m := rankInName.FindStringSubmatch(b)
	if m == nil {
		m = trailingNum.FindStringSubmatch(b)
	}
	if m == nil {
		return -1
	}
	n, err := strconv.ParseInt(m[1], 10, 32)
	if err != nil {
		return -1
	}
	return int32(n)
}

// mapRank looks a path up in --rank-map, by path as given, then base name.
func mapRank(path string, opts source.Options) int32 {
	for _, k := range []string{path, filepath.Base(path), baseName(path)} {
		if r, ok := opts.RankMap[k]; ok {
			return r
		}
	}
	return -1
}

// localRanks decides what it can of each GPU process's global rank; -1
// where the report alone cannot tell. One process: --rank-map, then the
// captured environment, then the file name. Several processes (one report
// per node): the rank each gave its widest NCCL communicator, which is the
// world communicator when the job made one.
func (b *builder) localRanks(path string, opts source.Options) map[int32]int32 {
	pids := b.pids()
	out := map[int32]int32{}
	if len(pids) == 1 {
		out[pids[0]] = firstKnown(mapRank(path, opts), b.meta.envRank(), fileRank(path))
		return out
	}
	for _, p := range pids {
		out[p] = b.initRank(p)
	}
	return out
}

func firstKnown(rs ...int32) int32 {
	for _, r := range rs {
		if r >= 0 {
			return r
		}
	}
	return -1
}

// initRank is the rank of process pid in its widest communicator, or -1.
func (b *builder) initRank(pid int32) int32 {
	best, rank := int32(0), int32(-1)
	for _, in := range b.inits {
		if in.pid == pid && in.p.rank >= 0 && in.p.nranks > best {
			best, rank = in.p.nranks, in.p.rank
		}
	}
	return rank
}
