package dataset

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// Read reads the whole dataset in dir.
func Read(dir string) (*model.Trace, Manifest, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, Manifest{}, err
	}
	t, err := read(dir, m, m.Ranks, false)
	if err != nil {
		return nil, Manifest{}, err
	}
	return t, m, nil
}

// ReadRanks reads the events of the given ranks only, opening no other
// rank's events file. The rank, stream, communicator, sample and skip tables
// are read whole (they are small and keep the trace valid: communicators
// name ranks not asked for). The collectives are rebuilt from the columns
// joined into the events files, so collectives.parquet is not read: t.Colls
// holds only the rows the read events refer to, in dataset order,
// renumbered. Asking for a rank that is not in the dataset is an error.
func ReadRanks(dir string, ranks []int32) (*model.Trace, Manifest, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, Manifest{}, err
	}
	want := slices.Compact(slices.Sorted(slices.Values(ranks)))
	for _, r := range want {
		if !slices.Contains(m.Ranks, r) {
			return nil, Manifest{}, fmt.Errorf("reading dataset %s: rank %d is not in it (it has %d ranks)", dir, r, len(m.Ranks))
		}
	}
	t, err := read(dir, m, want, len(want) < len(m.Ranks))
	if err != nil {
		return nil, Manifest{}, err
	}
	return t, m, nil
}

// read reads the tables and the given ranks' events (both at once: the
// events files touch no table until addEvents); partial takes the
// collectives from the events files instead of collectives.parquet.
func read(dir string, m Manifest, ranks []int32, partial bool) (*model.Trace, error) {
	t := &model.Trace{Sources: m.Sources, World: m.World, Absent: m.Absent}
	tables := make(chan error, 1) // the tables are read while the events files are
	go func() { tables <- readTables(dir, t, m, partial) }()
	chunks, all, err := readEventFiles(dir, m, ranks, partial)
	if err := <-tables; err != nil {
		return nil, fmt.Errorf("reading dataset: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("reading dataset: %w", err)
	}
	addEvents(t, chunks, all, partial)
	if !partial {
		ranks = nil
	}
	if err := readCounters(dir, t, ranks); err != nil {
		return nil, fmt.Errorf("reading dataset: %w", err)
	}
	t.Events.Link()
	return t, nil
}

func readTables(dir string, t *model.Trace, m Manifest, partial bool) error {
	steps := []struct {
		name string
		read func(path string) error
	}{
		{ranksFile, func(p string) error { return readRanks(p, t) }},
		{streamsFile, func(p string) error { return readStreams(p, t) }},
		{commsFile, func(p string) error { return readComms(p, t) }},
		{collsFile, func(p string) error { return readColls(p, t) }},
		{skippedFile, func(p string) error { return readSkipped(p, t) }},
		{sampleGPUsFile, func(p string) error { return readSampleGPUs(p, t) }},
		{samplesFile, func(p string) error { return readSamples(p, t) }},
	}
	for _, s := range steps {
		if (s.name == samplesFile || s.name == sampleGPUsFile) && m.Samples == 0 && m.SampleGPUs == 0 || s.name == collsFile && partial {
			continue
		}
		if err := s.read(filepath.Join(dir, s.name)); err != nil {
			return err
		}
	}
	if partial {
		m.Collectives = 0
	}
	return checkCounts(t, m)
}

func checkCounts(t *model.Trace, m Manifest) error {
	got := []int64{int64(len(t.Streams)), int64(len(t.Comms)), int64(t.Colls.Len()), int64(t.Samples.Len()), int64(len(t.SampleGPUs)), int64(len(t.Skipped))}
	want := []int64{m.Streams, m.Comms, m.Collectives, m.Samples, m.SampleGPUs, m.Skipped}
	names := []string{streamsFile, commsFile, collsFile, samplesFile, sampleGPUsFile, skippedFile}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Errorf("%s has %d rows, the manifest says %d", names[i], got[i], want[i])
		}
	}
	return nil
}
