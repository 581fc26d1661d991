package prose

import (
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// statement is a Statement with the Result it describes (for its ranks).
type statement struct {
	res *result.Result
	result.Statement
}

// token is the text of one {token}, and whether it has a value.
func (s statement) token(tok string) (string, bool) {
	if w, ok := strings.CutPrefix(tok, "@"); ok {
		v, has := s.Words[w]
		return v, has
	}
	name, format, _ := strings.Cut(tok, "|")
	if v, ok, special := s.special(name, format); special {
		return v, ok
	}
	f, ok := s.Figure(name)
	if !ok {
		return "", false
	}
	if format == "xids" {
		return s.xids(name), true
	}
	return formatFigure(f, format), true
}

// special is the value of a token naming the statement's ranks, stages or
// axes rather than a figure; special is false for a figure's name.
func (s statement) special(name, format string) (v string, ok, special bool) {
	switch name {
	case "rank0", "rank1":
		r, ok := s.rank(name)
		return fmt.Sprint(r), ok, true
	case "who0", "who1":
		r, ok := s.rank(name)
		return Describe(s.res, r), ok, true
	case "ranks":
		return ranksToken(s.Ranks, format), len(s.Ranks) > 0, true
	case "stage0":
		return first(s.Stages)
	case "axis":
		return firstString(s.Axes)
	case "axes":
		return strings.Join(s.Axes, ", "), len(s.Axes) > 0, true
	case "axiswords":
		ax, ok, _ := firstString(s.Axes)
		return vocab.AxisWords(ax), ok, true
	}
	return "", false, false
}

func (s statement) rank(name string) (int, bool) {
	i := int(name[len(name)-1] - '0')
	if i >= len(s.Ranks) {
		return 0, false
	}
	return s.Ranks[i], true
}

func first(xs []int) (string, bool, bool) {
	if len(xs) == 0 {
		return "", false, true
	}
	return fmt.Sprint(xs[0]), true, true
}

func firstString(xs []string) (string, bool, bool) {
	if len(xs) == 0 {
		return "", false, true
	}
	return xs[0], true, true
}

// ranksToken writes ranks as "3, 5", or in a format: ranktext "rank 5",
// "ranks 2-127"; hashave "has", "have"; list "[2 3]".
func ranksToken(rs []int, format string) string {
	switch format {
	case "ranktext":
		if len(rs) == 1 {
			return fmt.Sprintf("rank %d", rs[0])
		}
		return "ranks " + result.RankRanges(rs)
	case "hashave":
		return map[bool]string{true: "has", false: "have"}[len(rs) == 1]
	case "list":
		return fmt.Sprint(rs)
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprint(r)
	}
	return strings.Join(parts, ", ")
}

func (s statement) xids(name string) string {
	var b strings.Builder
	for _, f := range s.Figures {
		if f.Name == name {
			fmt.Fprintf(&b, "; XID %d", int64(f.Value))
		}
	}
	return b.String()
}

// Describe names a rank with its coordinates and GPU:
// "rank 5 (pp1 dp0 tp1, host node000 GPU 5)"; the host is left out when the
// trace does not name it: "rank 5 (pp1 dp0 tp1, GPU 5)"; "rank 5" when
// the Result does not hold it.
func Describe(res *result.Result, rank int) string {
	if res != nil {
		for _, r := range res.Ranks {
			if r.Rank == rank {
				return describe(r)
			}
		}
	}
	return fmt.Sprintf("rank %d", rank)
}

func describe(r result.RankStats) string {
	where := fmt.Sprintf("GPU %d", r.LocalGPU)
	if r.Host != "" {
		where = "host " + r.Host + " " + where
	}
	return fmt.Sprintf("rank %d (pp%d dp%d tp%d, %s)", r.Rank, r.PP, r.DP, r.TP, where)
}
