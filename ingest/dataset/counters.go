package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// countersFile holds the counter samples (GPU memory levels). It is
// optional: written only when the trace has counters, and a dataset
// without it has none. The manifest does not count its rows.
const countersFile = "counters.parquet"

// counterRow is one row of counters.parquet.
type counterRow struct {
	Rank   int32  `parquet:"rank"`
	Name   string `parquet:"name,dict"`
	TimeNs int64  `parquet:"time_ns,delta"`
	Value  int64  `parquet:"value"`
}

func counterRows(t *model.Trace) []counterRow {
	c := &t.Counters
	rows := make([]counterRow, c.Len())
	for i := range rows {
		rows[i] = counterRow{c.Rank[i], t.Names.Get(c.Name[i]), c.Time[i], c.Value[i]}
	}
	return rows
}

// writeCounters writes counters.parquet when t has counters.
func writeCounters(dir string, t *model.Trace, tool writer) error {
	if t.Counters.Len() == 0 {
		return nil
	}
	path := filepath.Join(dir, countersFile)
	if err := writeFile(path, counterRows(t), writeOptions(tool, countersFile)); err != nil {
		return fmt.Errorf("writing dataset table: %w", err)
	}
	tool.sync.add(path)
	return nil
}

// readCounters reads counters.parquet, if present, keeping the samples of
// the given ranks (all when ranks is nil), sorted.
func readCounters(dir string, t *model.Trace, ranks []int32) error {
	path := filepath.Join(dir, countersFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	rows, err := readFile[counterRow](path)
	for _, r := range rows {
		if ranks == nil || slices.Contains(ranks, r.Rank) {
			t.Counters.Append(model.Counter{Rank: r.Rank, Name: t.Names.Intern(r.Name), Time: r.TimeNs, Value: r.Value})
		}
	}
	t.Counters.Sort()
	return err
}
