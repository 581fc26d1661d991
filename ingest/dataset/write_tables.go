package dataset

import (
	"fmt"
	"path/filepath"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// writeTables writes every file but the event files.
func writeTables(dir string, t *model.Trace, tool string) error {
	tables := []struct {
		name  string
		write func(path string, opts []parquet.WriterOption) error
	}{
		{ranksFile, func(p string, o []parquet.WriterOption) error { return writeFile(p, rankRows(t), o) }},
		{streamsFile, func(p string, o []parquet.WriterOption) error { return writeFile(p, streamRows(t), o) }},
		{commsFile, func(p string, o []parquet.WriterOption) error { return writeFile(p, commRows(t), o) }},
		{collsFile, func(p string, o []parquet.WriterOption) error { return writeFile(p, collRows(t), o) }},
		{skippedFile, func(p string, o []parquet.WriterOption) error { return writeFile(p, skipRows(t), o) }},
		{sampleGPUsFile, func(p string, o []parquet.WriterOption) error { return writeFile(p, sampleGPURows(t), o) }},
		{samplesFile, func(p string, o []parquet.WriterOption) error { return writeFile(p, sampleRows(t), o) }},
	}
	for _, tb := range tables {
		if (tb.name == samplesFile || tb.name == sampleGPUsFile) && len(t.Samples) == 0 && len(t.SampleGPUs) == 0 {
			continue
		}
		if err := tb.write(filepath.Join(dir, tb.name), writeOptions(tool, tb.name)); err != nil {
			return fmt.Errorf("writing dataset table: %w", err)
		}
	}
	return nil
}

func rankRows(t *model.Trace) []rankRow {
	rows := make([]rankRow, len(t.Ranks))
	for i, r := range t.Ranks {
		c := r.Coord
		rows[i] = rankRow{r.Rank, r.Host, r.PID, r.LocalGPU, r.GPUName, r.GPUUUID, r.BusID,
			c.TP, c.PP, c.DP, c.CP, c.EP, r.Source, r.ClockBase}
	}
	return rows
}

func streamRows(t *model.Trace) []streamRow {
	rows := make([]streamRow, len(t.Streams))
	for i, s := range t.Streams {
		rows[i] = streamRow{int32(i), s.Rank, s.GPU, s.ID, s.Device, s.Name}
	}
	return rows
}

func commRows(t *model.Trace) []commRow {
	rows := make([]commRow, len(t.Comms))
	for i, c := range t.Comms {
		rows[i] = commRow{int32(i), c.ID, c.Name, c.Desc, nonNil(c.Members), c.Axis.String(), c.AxisBy.String()}
	}
	return rows
}

func collRows(t *model.Trace) []collRow {
	c := &t.Colls
	rows := make([]collRow, c.Len())
	for i := range rows {
		rows[i] = collRow{int32(i), c.Op[i].String(), c.Bytes[i], t.Names.Get(c.DType[i]), c.Comm[i], c.Seq[i], c.Peer[i], c.GroupSize[i]}
	}
	return rows
}

func skipRows(t *model.Trace) []skipRow {
	rows := make([]skipRow, len(t.Skipped))
	for i, s := range t.Skipped {
		rows[i] = skipRow{s.Source, s.Offset, s.Unit, s.Reason, s.Count}
	}
	return rows
}

func sampleGPURows(t *model.Trace) []sampleGPURow {
	rows := make([]sampleGPURow, len(t.SampleGPUs))
	for i, g := range t.SampleGPUs {
		rows[i] = sampleGPURow{int32(i), g.Host, g.Index, g.UUID, g.BusID, g.Name}
	}
	return rows
}

func sampleRows(t *model.Trace) []sampleRow {
	rows := make([]sampleRow, len(t.Samples))
	for i, s := range t.Samples {
		rows[i] = sampleRow{s.GPU, s.TimeNs, s.SMUtil, s.MemUtil, s.SMClockMHz, s.MemClockMHz, s.PowerMW,
			s.PowerLimitMW, s.TempC, s.MemUsedBytes, s.ClockReasons, s.PCIeTxKBs, s.PCIeRxKBs,
			s.NVLinkTxKBs, s.NVLinkRxKBs, s.ECCUncorrected, s.XID}
	}
	return rows
}
