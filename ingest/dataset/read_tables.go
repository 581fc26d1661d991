package dataset

import (
	"fmt"
	"slices"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/samplepq"
	"github.com/tpptrace/tpptrace/model"
)

func readRanks(path string, t *model.Trace) error {
	rows, err := readFile[rankRow](path)
	for _, r := range rows {
		t.AddRank(model.Rank{Rank: r.Rank, Host: r.Host, PID: r.PID, LocalGPU: r.LocalGPU, GPUName: r.GPUName,
			GPUUUID: r.GPUUUID, BusID: r.BusID, Coord: model.Coord{TP: r.TP, PP: r.PP, DP: r.DP, CP: r.CP, EP: r.EP},
			Source: r.Source, ClockBase: r.ClockBase})
	}
	return err
}

func readStreams(path string, t *model.Trace) error {
	rows, err := readFile[streamRow](path)
	if err == nil {
		err = sortByIndex(path, rows, func(r streamRow) int32 { return r.Stream })
	}
	for _, r := range rows {
		t.Streams = append(t.Streams, model.Stream{Rank: r.Rank, GPU: r.GPU, ID: r.ID, Device: r.Device, Name: r.Name})
	}
	return err
}

func readComms(path string, t *model.Trace) error {
	rows, err := readFile[commRow](path)
	if err == nil {
		err = sortByIndex(path, rows, func(r commRow) int32 { return r.Comm })
	}
	for _, r := range rows {
		t.Comms = append(t.Comms, model.Communicator{ID: r.ID, Name: r.Name, Desc: r.Desc, Members: r.Members,
			Axis: model.ParseAxis(r.Axis), AxisBy: model.ParseAxisSource(r.AxisBy)})
	}
	return err
}

// readColls reads collectives.parquet column by column (readCollTable), or
// by rows when its columns are not the required leaves the package writes
// (a table rewritten by another tool).
func readColls(path string, t *model.Trace) error {
	pf, closeFile, err := openParquet(path)
	if err != nil {
		return err
	}
	defer closeFile()
	if !requiredLeaves(pf.Schema(), collTableColumns) {
		return readCollRows(path, t)
	}
	if err := readCollTable(pf, t); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// requiredLeaves reports whether s has every named column as a required,
// unrepeated leaf.
func requiredLeaves(s *parquet.Schema, names []string) bool {
	for _, name := range names {
		if _, err := lookupRequired(s, name, len(s.Columns())); err != nil {
			return false
		}
	}
	return true
}

func readCollRows(path string, t *model.Trace) error {
	rows, err := readFile[collRow](path)
	if err == nil {
		err = sortByIndex(path, rows, func(r collRow) int32 { return r.Coll })
	}
	for _, r := range rows {
		t.Colls.Append(model.Collective{Op: model.ParseOp(r.Op), Bytes: r.Bytes, DType: t.Names.Intern(r.DType),
			Comm: r.Comm, Seq: r.Seq, Peer: r.Peer, GroupSize: r.GroupSize})
	}
	return err
}

func readSkipped(path string, t *model.Trace) error {
	rows, err := readFile[skipRow](path)
	for _, r := range rows {
		t.Skipped = append(t.Skipped, model.Skip{Source: r.Source, Offset: r.Offset, Unit: r.Unit, Reason: r.Reason, Count: r.Count})
	}
	return err
}

func readSampleGPUs(path string, t *model.Trace) error {
	rows, err := readFile[sampleGPURow](path)
	if err == nil {
		err = sortByIndex(path, rows, func(r sampleGPURow) int32 { return r.GPU })
	}
	for _, r := range rows {
		t.SampleGPUs = append(t.SampleGPUs, model.SampledGPU{Host: r.Host, Index: r.Index, UUID: r.UUID, BusID: r.BusID, Name: r.Name})
	}
	return err
}

// readSamples reads the samples table: since schema version 2 in the one
// samples schema (samplepq.Row), each row's GPU found in sample_gpus by its
// identity; before, in the layout of sampleRowV1.
func readSamples(path string, t *model.Trace) error {
	pf, closeFile, err := openParquet(path)
	if err != nil {
		return err
	}
	defer closeFile()
	if fileVersion(pf) < 2 {
		return readSamplesV1(path, pf, t)
	}
	gpus, sk := len(t.SampleGPUs), samplepq.NewSink(t)
	if err := sk.Read(pf); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(t.SampleGPUs) != gpus || sk.TakeDropped() > 0 {
		return fmt.Errorf("%s: samples of a GPU that %s lacks", path, sampleGPUsFile)
	}
	t.Samples.Sort()
	return nil
}

func readSamplesV1(path string, pf *parquet.File, t *model.Trace) error {
	err := readAll(pf, func(rows []sampleRowV1) {
		for _, s := range rows {
			t.Samples.Append(model.GPUSample{GPU: s.GPU, TimeNs: s.TimeNs, SMUtil: s.SMUtil, MemUtil: s.MemUtil,
				SMClockMHz: s.SMClockMHz, MemClockMHz: s.MemClockMHz, PowerMW: s.PowerMW, PowerLimitMW: s.PowerLimitMW,
				TempC: s.TempC, MemUsedBytes: s.MemUsedBytes, ClockReasons: s.ClockReasons, PCIeTxKBs: s.PCIeTxKBs,
				PCIeRxKBs: s.PCIeRxKBs, NVLinkTxKBs: s.NVLinkTxKBs, NVLinkRxKBs: s.NVLinkRxKBs,
				ECCUncorrected: s.ECCUncorrected, XID: s.XID})
		}
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	t.Samples.Sort()
	return nil
}

// sortByIndex orders the rows of a table by their index column and checks
// that the indices are exactly 0..n-1, as the other tables refer to rows by
// that index.
func sortByIndex[T any](path string, rows []T, idx func(T) int32) error {
	slices.SortFunc(rows, func(a, b T) int { return int(idx(a)) - int(idx(b)) })
	for i, r := range rows {
		if idx(r) != int32(i) {
			return fmt.Errorf("%s: row %d has index %d, want %d", path, i, idx(r), i)
		}
	}
	return nil
}
