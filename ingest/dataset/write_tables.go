package dataset

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/samplepq"
	"github.com/tpptrace/tpptrace/model"
)

// writeTables writes every file but the event files.
func writeTables(dir string, t *model.Trace, tool writer) error {
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
		{samplesFile, func(p string, o []parquet.WriterOption) error { return writeSamples(p, t, o) }},
	}
	for _, tb := range tables {
		if (tb.name == samplesFile || tb.name == sampleGPUsFile) && t.Samples.Len() == 0 && len(t.SampleGPUs) == 0 {
			continue
		}
		path := filepath.Join(dir, tb.name)
		if err := tb.write(path, writeOptions(tool, tb.name)); err != nil {
			return fmt.Errorf("writing dataset table: %w", err)
		}
		tool.sync.add(path)
	}
	return nil
}

func rankRows(t *model.Trace) []rankRow {
	return rowsOf(t.Ranks, func(_ int, r model.Rank) rankRow {
		c := r.Coord
		return rankRow{r.Rank, r.Host, r.PID, r.LocalGPU, r.GPUName, r.GPUUUID, r.BusID,
			c.TP, c.PP, c.DP, c.CP, c.EP, r.Source, r.ClockBase}
	})
}

func streamRows(t *model.Trace) []streamRow {
	return rowsOf(t.Streams, func(i int, s model.Stream) streamRow {
		return streamRow{int32(i), s.Rank, s.GPU, s.ID, s.Device, s.Name}
	})
}

func commRows(t *model.Trace) []commRow {
	return rowsOf(t.Comms, func(i int, c model.Communicator) commRow {
		return commRow{int32(i), c.ID, c.Name, c.Desc, nonNil(c.Members), c.Axis.String(), c.AxisBy.String()}
	})
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
	return rowsOf(t.Skipped, func(_ int, s model.Skip) skipRow {
		return skipRow{s.Source, s.Offset, s.Unit, s.Reason, s.Count}
	})
}

func sampleGPURows(t *model.Trace) []sampleGPURow {
	return rowsOf(t.SampleGPUs, func(i int, g model.SampledGPU) sampleGPURow {
		return sampleGPURow{int32(i), g.Host, g.Index, g.UUID, g.BusID, g.Name}
	})
}

// writeSamples writes the samples table in the one samples schema
// (samplepq.Row), the schema of the files `tpptrace sample` writes.
func writeSamples(path string, t *model.Trace, opts []parquet.WriterOption) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("%s: %w", path, cerr)
		}
	}()
	if err := samplepq.Write(f, t, opts...); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// rowsOf converts each element of a model table, given with its index (the
// row's index column), into its Parquet row.
func rowsOf[S, R any](in []S, row func(int, S) R) []R {
	rows := make([]R, len(in))
	for i, s := range in {
		rows[i] = row(i, s)
	}
	return rows
}
