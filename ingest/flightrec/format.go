package flightrec

import (
	"context"

	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// Format is the Flight Recorder dump format for the registry in package
// ingest.
var Format = source.Format{Name: "flight-recorder", About: "PyTorch NCCL Flight Recorder dumps (pickle or JSON): ranks and process groups",
	Sniff: func(_ string, head []byte) bool { return LooksLikeDump(head) }, Read: readFlightRecorder}

// streamJSON: the trace reads JSON dumps in record order twice, checking
// them first and streaming their entries into events after, rather than
// keeping their entries (a test turns it off to compare).
var streamJSON = true

// readFlightRecorder adds each dump to the trace as soon as it is read and
// drops its entries, so that no more dumps' entries are held than the
// dumps read at once, one a core (and none of a JSON dump in record order,
// see scanDump); the job is checked once all are read.
func readFlightRecorder(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	t := &model.Trace{}
	dumps, skips, err := scanDumpsSkipping(paths, opts.MaxMemory, opts.Workers, !streamJSON, func(d *model.FRDump, lazy bool) error {
		err := addDump(t, d, lazy, opts.MaxMemory)
		d.Entries = nil
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := model.CheckFRJob(dumps); err != nil {
		return nil, err
	}
	s := &model.Trace{}
	for _, k := range skips {
		s.Skip(k.Path, -1, "", "%s", k.Reason)
		if opts.Warn != nil {
			opts.Warn("skipping " + k.Path + ": " + k.Reason)
		}
	}
	t.Skipped = append(s.Skipped, t.Skipped...)
	t.Events.Sort()
	t.Fallback = t.Events.Len() > 0
	return t, nil
}

// addDump adds a dump's source, ranks, process groups and events.
func addDump(t *model.Trace, d *model.FRDump, lazy bool, maxMem int64) error {
	t.Sources = append(t.Sources, model.Source{Path: d.Path, Format: "flight-recorder", Version: d.Version})
	t.AddRank(model.Rank{Rank: d.Rank, LocalGPU: -1, Coord: model.UnknownCoord, Source: int32(len(t.Sources) - 1)})
	for _, name := range d.GroupNames() {
		g := d.Groups[name]
		for _, r := range g.Ranks {
			if t.FindRank(r) < 0 {
				t.AddRank(model.Rank{Rank: r, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
			}
		}
		t.AddComm(nccl.NamedComm(g.Name, g.Name, g.Desc, g.Ranks))
	}
	if !lazy {
		addFREvents(t, d)
		return nil
	}
	a := frAdder{t: t, d: d, stream: -1}
	return eachEntry(d.Path, maxMem, a.add)
}
