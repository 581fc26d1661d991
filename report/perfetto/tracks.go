package perfetto

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// rankInfo is what names a rank's process.
type rankInfo struct {
	stage int
	host  string
}

// processes names one process per rank known to r or tr.
func (e *exporter) processes(r *result.Result, tr *model.Trace) {
	info := map[int]rankInfo{}
	if tr != nil {
		for _, rk := range tr.Ranks {
			info[int(rk.Rank)] = rankInfo{stage: int(rk.Coord.PP), host: rk.Host}
		}
	}
	if r != nil {
		for _, rs := range r.Ranks {
			info[rs.Rank] = rankInfo{stage: rs.PP, host: rs.Host}
		}
	}
	ranks := make([]int, 0, len(info))
	for rank := range info {
		ranks = append(ranks, rank)
	}
	slices.Sort(ranks)
	for _, rank := range ranks {
		e.meta("process_name", pid(rank), 0, newObj(nil).str("name", processName(rank, info[rank])).done())
		e.meta("process_sort_index", pid(rank), 0, newObj(nil).int("sort_index", int64(rank)).done())
		e.meta("thread_name", pid(rank), classifiedTid, newObj(nil).str("name", "tpptrace: classified step").done())
		e.meta("thread_sort_index", pid(rank), classifiedTid, newObj(nil).int("sort_index", -1).done())
	}
}

func processName(rank int, in rankInfo) string {
	s := fmt.Sprintf("rank %d", rank)
	if in.stage >= 0 {
		s += fmt.Sprintf(" · stage %d", in.stage)
	}
	if in.host != "" {
		s += " · " + in.host
	}
	return s
}

// tid is the thread id of stream index s; events without a stream share 0.
func tid(s int32) int64 { return int64(s) + 1 }

func (e *exporter) threads(tr *model.Trace) {
	for i, s := range tr.Streams {
		name := s.Name
		if name == "" && s.GPU {
			name = fmt.Sprintf("stream %d", s.ID)
		} else if name == "" {
			name = fmt.Sprintf("thread %d", s.ID)
		}
		e.meta("thread_name", pid(int(s.Rank)), tid(int32(i)), newObj(nil).str("name", name).done())
		e.meta("thread_sort_index", pid(int(s.Rank)), tid(int32(i)), newObj(nil).int("sort_index", int64(i)).done())
	}
}
