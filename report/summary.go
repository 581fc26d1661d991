package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tpptrace/tpptrace/analysis/result/tables"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// SummaryFormats are the formats WriteSummary writes.
var SummaryFormats = []string{"text", "json", "csv"}

// Summary is one summary table: its title (a line above the text table),
// column ids (the CSV header, JSON's field names), display headers, and
// per row the raw values (CSV) and their display text; Rows is what JSON
// writes.
type Summary struct {
	Title   string
	IDs     []string
	Headers []string
	Raw     [][]string
	Text    [][]string
	Rows    any
	// FreeLast leaves the last text column (a name) unaligned, after the
	// right-aligned figures.
	FreeLast bool
}

// WriteSummary writes s as "text" (an aligned table under its title),
// "json" (the rows with the ids as keys) or "csv" (ids, raw values).
func WriteSummary(w io.Writer, s Summary, format string) error {
	switch format {
	case "text":
		return summaryText(w, s)
	case "json":
		b, err := json.MarshalIndent(s.Rows, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write(s.IDs)
		cw.WriteAll(s.Raw)
		return cw.Error()
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(SummaryFormats, ", "))
}

func summaryText(w io.Writer, s Summary) error {
	var b strings.Builder
	if s.Title != "" {
		fmt.Fprintf(&b, "%s\n\n", s.Title)
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	end := "\t"
	if s.FreeLast {
		end = ""
	}
	fmt.Fprintln(tw, strings.Join(s.Headers, "\t")+end)
	for _, r := range s.Text {
		fmt.Fprintln(tw, strings.Join(r, "\t")+end)
	}
	tw.Flush()
	_, err := io.WriteString(w, b.String())
	return err
}

func i64(v int64) string   { return strconv.FormatInt(v, 10) }
func f64(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
func pct(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + " %" }

// overlapText is "–" without communication.
func overlapText(v float64) string {
	if v < 0 {
		return "–"
	}
	return pct(v)
}

// BreakdownSummary is HTA's temporal breakdown, overlap and kernel types
// per rank over window (said in the title).
func BreakdownSummary(rows []tables.RankBreakdown, window string) Summary {
	s := Summary{Title: "GPU time per rank over " + window + " (HTA's temporal breakdown, overlap and kernel types)",
		IDs: []string{"rank", "window_ns", "idle_ns", "compute_ns", "non_compute_ns", "idle_pct", "compute_pct", "non_compute_pct",
			"overlap_pct", "exposed_comm_ns", "comm_ns", "memory_ns", "comm_pct", "memory_pct"},
		Headers: []string{"rank", "window", "idle", "compute", "non-compute", "idle %", "compute %", "non-compute %", "comm overlap", "exposed comm", "comm %", "memory %"},
		Rows:    rows}
	for _, r := range rows {
		s.Raw = append(s.Raw, []string{strconv.Itoa(r.Rank), i64(r.WindowNs), i64(r.IdleNs), i64(r.ComputeNs), i64(r.NonComputeNs),
			f64(r.IdlePct), f64(r.ComputePct), f64(r.NonComputePct), f64(r.OverlapPct), i64(r.ExposedCommNs), i64(r.CommNs), i64(r.MemoryNs),
			f64(r.CommPct), f64(r.MemoryPct)})
		s.Text = append(s.Text, []string{strconv.Itoa(r.Rank), vocab.Duration(r.WindowNs), vocab.Duration(r.IdleNs), vocab.Duration(r.ComputeNs),
			vocab.Duration(r.NonComputeNs), pct(r.IdlePct), pct(r.ComputePct), pct(r.NonComputePct), overlapText(r.OverlapPct),
			vocab.Duration(r.ExposedCommNs), pct(r.CommPct), pct(r.MemoryPct)})
	}
	return s
}

// statsIDs and statsCells are the columns of tables.Stats.
var statsIDs = []string{"count", "total_ns", "mean_ns", "median_ns", "min_ns", "max_ns", "share"}

func statsRaw(s tables.Stats) []string {
	return []string{strconv.Itoa(s.Count), i64(s.TotalNs), f64(s.MeanNs), i64(s.MedNs), i64(s.MinNs), i64(s.MaxNs), f64(s.Share)}
}

func statsText(s tables.Stats) []string {
	return []string{strconv.Itoa(s.Count), vocab.Duration(s.TotalNs), vocab.Duration(int64(s.MeanNs)), vocab.Duration(s.MedNs),
		vocab.Duration(s.MinNs), vocab.Duration(s.MaxNs), vocab.Percent(s.Share)}
}

var statsHeaders = []string{"count", "total", "mean", "median", "min", "max", "share"}

// KernelsSummary is the kernel table grouped by by, over window.
func KernelsSummary(rows []tables.KernelRow, by, window string) Summary {
	s := Summary{Title: fmt.Sprintf("GPU kernels by %s over %s, summed over ranks", by, window),
		IDs: append([]string{by}, statsIDs...), Headers: append(statsHeaders[:len(statsHeaders):len(statsHeaders)], "  "+by), Rows: rows, FreeLast: true}
	for _, r := range rows {
		s.Raw = append(s.Raw, append([]string{r.Key}, statsRaw(r.Stats)...))
		s.Text = append(s.Text, append(statsText(r.Stats), "  "+shorten(r.Key, 80)))
	}
	return s
}

// NVTXSummary is the annotation-range table over window.
func NVTXSummary(rows []tables.RangeRow, window string) Summary {
	s := Summary{Title: "annotation ranges (NVTX, record_function) over " + window + ", summed over ranks",
		IDs: append([]string{"name", "gpu"}, statsIDs...), Headers: append(statsHeaders[:len(statsHeaders):len(statsHeaders)], "side", "  range"), Rows: rows, FreeLast: true}
	for _, r := range rows {
		side := "CPU"
		if r.GPU {
			side = "GPU"
		}
		s.Raw = append(s.Raw, append([]string{r.Name, strconv.FormatBool(r.GPU)}, statsRaw(r.Stats)...))
		s.Text = append(s.Text, append(statsText(r.Stats), side, "  "+shorten(r.Name, 80)))
	}
	return s
}

// NCCLSummary is the collective table over window.
func NCCLSummary(rows []tables.CollRow, window string) Summary {
	s := Summary{Title: "collectives per communicator, op and message size over " + window + " (times per member)",
		IDs:     []string{"comm", "axis", "op", "bucket", "members", "count", "bytes", "time_ns", "wait_ns", "transfer_ns", "bus_gbps"},
		Headers: []string{"communicator", "axis", "op", "size", "members", "count", "bytes", "time", "wait", "transfer", "bus GB/s"}, Rows: rows}
	for _, r := range rows {
		s.Raw = append(s.Raw, []string{r.Comm, r.Axis, r.Op, r.Bucket, strconv.Itoa(r.Members), strconv.Itoa(r.Count), i64(r.Bytes),
			i64(r.TimeNs), i64(r.WaitNs), i64(r.TransferNs), f64(r.BusGBps)})
		s.Text = append(s.Text, []string{shorten(r.Comm, 40), r.Axis, r.Op, r.Bucket, strconv.Itoa(r.Members), strconv.Itoa(r.Count),
			vocab.Bytes(r.Bytes), vocab.Duration(r.TimeNs), vocab.Duration(r.WaitNs), vocab.Duration(r.TransferNs), strconv.FormatFloat(r.BusGBps, 'f', 1, 64)})
	}
	return s
}

// shorten cuts s to n runes with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// KernelTypeSummary is HTA's kernel-type table over window.
func KernelTypeSummary(rows []tables.KernelTypeRow, window string) Summary {
	s := Summary{Title: "GPU time by kernel type, summed over ranks, over " + window + " (HTA's kernel-type breakdown)",
		IDs: []string{"kernel_type", "sum_ns", "percentage"}, Headers: []string{"time", "share", "  kernel type"}, Rows: rows, FreeLast: true}
	for _, r := range rows {
		s.Raw = append(s.Raw, []string{r.Type, i64(r.Ns), f64(r.Percent)})
		s.Text = append(s.Text, []string{vocab.Duration(r.Ns), strconv.FormatFloat(r.Percent, 'f', 1, 64) + " %", "  " + r.Type})
	}
	return s
}
