package report

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// A job without a pipeline (PP = 1: DDP, FSDP, DLRM, a single GPU) has no
// stages, bubble, microbatches or schedule. Its views describe it in its own
// words: one row per rank — or per data-parallel replica when the ranks are
// too many — with compute, idle GPU time and the exposed communication of
// each axis that communicates.

// NoPipeline reports whether the job has no pipeline: PP = 1 and at most
// one stage.
func NoPipeline(res *result.Result) bool { return res.Layout.PP <= 1 && len(res.Stages) <= 1 }

// maxRankRows is the most rows the per-rank table shows.
const maxRankRows = 32

// RankRow is one row of the per-rank table of a job without a pipeline:
// one rank, or a data-parallel replica (the ranks sharing a dp
// coordinate), its figures the mean over its ranks, per step.
type RankRow struct {
	Label     string           // "3", "dp 1"
	Ranks     []int            // its ranks
	ComputeNs int64            // compute
	IdleNs    int64            // the GPU runs nothing: no kernel, no copy
	IdleShare float64          // IdleNs over the step
	ExposedNs map[string]int64 // per axis key: communication with no compute under it
}

// RankTable is the per-rank table: its rows, the axes its exposed columns
// show (vocab.FindingAxes order), how many rows it left out (the
// least idle and exposed), and what a row is ("rank", "dp replica").
type RankTable struct {
	Rows    []RankRow
	Axes    []string
	Omitted int
	Unit    string
}

// RankRows builds the per-rank table: a row per rank up to maxRankRows
// ranks, else a row per data-parallel replica when those are few enough,
// else the maxRankRows ranks with the most idle and exposed time.
func RankRows(res *result.Result) RankTable {
	tab := RankTable{Axes: commAxes(res), Unit: "rank"}
	if len(res.Ranks) == 0 && len(res.Stages) == 1 {
		return stageRow(res.Stages[0])
	}
	groups := rankGroups(res)
	if len(groups) > maxRankRows && res.Layout.DP > 1 && res.Layout.DP <= maxRankRows {
		groups, tab.Unit = replicaGroups(res), "dp replica"
	}
	for _, g := range groups {
		tab.Rows = append(tab.Rows, meanRow(g))
	}
	if len(tab.Rows) > maxRankRows {
		slices.SortStableFunc(tab.Rows, func(a, b RankRow) int { return cmp.Compare(lost(b), lost(a)) })
		tab.Omitted, tab.Rows = len(tab.Rows)-maxRankRows, tab.Rows[:maxRankRows]
	}
	return tab
}

// lost is a row's idle and exposed time.
func lost(r RankRow) int64 {
	n := r.IdleNs
	for _, v := range r.ExposedNs {
		n += v
	}
	return n
}

// stageRow is the table of a Result that has its one stage but no ranks
// (written by hand or cut down): one row, the stage's mean, whose bubble
// is the idle time (copies included).
func stageRow(s result.StageStats) RankTable {
	tab := RankTable{Unit: "rank", Rows: []RankRow{{Label: "all", Ranks: s.Ranks, ComputeNs: s.ComputeNs,
		IdleNs: s.BubbleNs, IdleShare: s.BubbleFraction, ExposedNs: s.ExposedNs}}}
	for _, ax := range vocab.FindingAxes {
		if s.ExposedNs[ax] > 0 {
			tab.Axes = append(tab.Axes, ax)
		}
	}
	return tab
}

// commAxes are the axis keys on which some rank communicates.
func commAxes(res *result.Result) []string {
	var out []string
	for _, ax := range vocab.FindingAxes {
		if slices.ContainsFunc(res.Ranks, func(r result.RankStats) bool { return r.CommNs[ax] > 0 }) {
			out = append(out, ax)
		}
	}
	return out
}

func rankGroups(res *result.Result) [][]result.RankStats {
	out := make([][]result.RankStats, len(res.Ranks))
	for i, r := range res.Ranks {
		out[i] = []result.RankStats{r}
	}
	return out
}

// replicaGroups groups the ranks by dp coordinate, in dp order.
func replicaGroups(res *result.Result) [][]result.RankStats {
	by := map[int][]result.RankStats{}
	for _, r := range res.Ranks {
		by[r.DP] = append(by[r.DP], r)
	}
	var out [][]result.RankStats
	for _, dp := range slices.Sorted(maps.Keys(by)) {
		out = append(out, by[dp])
	}
	return out
}

// meanRow is the mean of ranks' figures; a lone rank is labelled by its
// number, a replica by its dp coordinate.
func meanRow(rs []result.RankStats) RankRow {
	row := RankRow{Label: fmt.Sprint(rs[0].Rank), ExposedNs: map[string]int64{}}
	if len(rs) > 1 {
		row.Label = fmt.Sprintf("dp %d", rs[0].DP)
	}
	var step int64
	for _, r := range rs {
		row.Ranks = append(row.Ranks, r.Rank)
		row.ComputeNs += r.ComputeNs
		row.IdleNs += r.IdleNs
		step += r.StepNs
		for ax, v := range r.ExposedNs {
			row.ExposedNs[ax] += v
		}
	}
	n := int64(len(rs))
	row.ComputeNs, row.IdleNs = row.ComputeNs/n, row.IdleNs/n
	for ax := range row.ExposedNs {
		row.ExposedNs[ax] /= n
	}
	if step > 0 {
		row.IdleShare = float64(row.IdleNs*n) / float64(step)
	}
	return row
}

// MeanRankRow is the mean over every rank, the table's last line.
func MeanRankRow(res *result.Result) RankRow {
	if len(res.Ranks) == 0 {
		return RankRow{Label: "mean", ExposedNs: map[string]int64{}}
	}
	row := meanRow(res.Ranks)
	row.Label = "mean"
	return row
}
