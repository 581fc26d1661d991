package kineto

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
)

// rankInName finds a rank in a file name: rank-3, rank3, rank_3, worker3,
// sampled_rank-0.json.gz, worker3_step_12.pt.trace.json.
var rankInName = regexp.MustCompile(`(?i)(?:rank|worker)[-_]?(\d+)`)

// rankOf decides a file's rank: distributedInfo.rank, else a rank in the
// file name, else the user's rank map (by path as given, then base name).
// single says the file is read alone: then an unknown rank is 0.
func rankOf(path string, meta fileMeta, rankMap map[string]int32, single bool) (int32, string, error) {
	if meta.rank >= 0 && meta.rank < 1<<30 {
		return int32(meta.rank), "distributedInfo", nil
	}
	if r, ok := rankFromName(path); ok {
		return r, "file name", nil
	}
	if r, ok := rankMap[path]; ok {
		return r, "rank map", nil
	}
	if r, ok := rankMap[filepath.Base(path)]; ok {
		return r, "rank map", nil
	}
	if single {
		return 0, "default", nil
	}
	return 0, "", fmt.Errorf("cannot tell which rank wrote it: no distributedInfo.rank, no rank in the file name, not in the rank map (use --rank-map)")
}

// rankFromName finds a rank in the file's base name.
func rankFromName(path string) (int32, bool) {
	m := rankInName.FindStringSubmatch(filepath.Base(path))
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(m[1], 10, 32)
	return int32(n), err == nil
}
