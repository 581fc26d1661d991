package report

import (
	"encoding/json"
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// v1 is a version-1 Result: its findings' summary and evidence, and slow
// ranks' evidence, are sentences rather than statements.
type v1 struct {
	result.Result
	Findings  []v1Finding  `json:"findings"`
	SlowRanks []v1SlowRank `json:"slow_ranks"`
}

type v1Finding struct {
	Kind      string   `json:"kind"`
	Severity  string   `json:"severity"`
	CostNs    int64    `json:"cost_ns"`
	CostShare float64  `json:"cost_share"`
	Summary   string   `json:"summary"`
	Evidence  []string `json:"evidence,omitempty"`
	Remedy    string   `json:"remedy,omitempty"`
	Ranks     []int    `json:"ranks"`
	Stages    []int    `json:"stages"`
}

type v1SlowRank struct {
	Rank          int      `json:"rank"`
	Score         float64  `json:"score"`
	ComputeExcess float64  `json:"compute_excess"`
	BlameNs       int64    `json:"blame_ns"`
	Evidence      []string `json:"evidence"`
}

// readV1 decodes a version-1 Result, keeping each sentence as a text
// statement (vocab.SayText), so that compare and the views read it as it
// was written.
func readV1(b []byte) (*result.Result, error) {
	var old v1
	if err := json.Unmarshal(b, &old); err != nil {
		return nil, fmt.Errorf("decode result (schema version 1): %w", err)
	}
	res := old.Result
	res.Findings = make([]result.Finding, len(old.Findings))
	for i, f := range old.Findings {
		res.Findings[i] = result.Finding{Kind: f.Kind, Severity: f.Severity, CostNs: f.CostNs, CostShare: f.CostShare,
			Headline: result.Text(f.Summary), Evidence: texts(f.Evidence), Remedy: f.Remedy, Ranks: f.Ranks, Stages: f.Stages}
	}
	if old.Findings == nil {
		res.Findings = nil
	}
	res.SlowRanks = nil
	for _, s := range old.SlowRanks {
		res.SlowRanks = append(res.SlowRanks, result.SlowRank{Rank: s.Rank, Score: s.Score, ComputeExcess: s.ComputeExcess,
			BlameNs: s.BlameNs, Evidence: texts(s.Evidence)})
	}
	return &res, nil
}

func texts(lines []string) []result.Statement {
	if lines == nil {
		return nil
	}
	out := make([]result.Statement, len(lines))
	for i, l := range lines {
		out[i] = result.Text(l)
	}
	return out
}
