package flightrec

import (
	"context"

	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// Format is the Flight Recorder dump format for the registry in package
// ingest.
var Format = source.Format{Name: "flight-recorder", About: "PyTorch NCCL Flight Recorder dumps (pickle or JSON): ranks and process groups",
	Sniff: func(_ string, head []byte) bool { return LooksLikeDump(head) }, Read: readFlightRecorder}

// streamJSON: the trace reads JSON dumps in record order twice, checking
// them first and streaming their entries into events after, rather than
// keeping their entries (a test turns it off to compare).
var streamJSON = true

func readFlightRecorder(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	dumps, lazy, skips, err := scanDumpsSkipping(paths, opts.MaxMemory, !streamJSON)
	if err != nil {
		return nil, err
	}
	if err := model.CheckFRJob(dumps); err != nil {
		return nil, err
	}
	t := &model.Trace{}
	for _, s := range skips {
		t.Skip(s.Path, -1, "", "%s", s.Reason)
		if opts.Warn != nil {
			opts.Warn("skipping " + s.Path + ": " + s.Reason)
		}
	}
	for i, d := range dumps {
		t.Sources = append(t.Sources, model.Source{Path: d.Path, Format: "flight-recorder", Version: d.Version})
		t.AddRank(model.Rank{Rank: d.Rank, LocalGPU: -1, Coord: model.UnknownCoord, Source: int32(i)})
		for _, name := range d.GroupNames() {
			g := d.Groups[name]
			for _, r := range g.Ranks {
				if t.FindRank(r) < 0 {
					t.AddRank(model.Rank{Rank: r, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
				}
			}
			t.AddComm(nccl.NamedComm(g.Name, g.Name, g.Desc, g.Ranks))
		}
		if err := addDumpEvents(t, d, lazy[i], opts.MaxMemory); err != nil {
			return nil, err
		}
	}
	t.Events.Sort()
	t.Fallback = t.Events.Len() > 0
	return t, nil
}

// addDumpEvents adds the dump's events (addFREvents), streaming the
// entries of a lazy dump from its file again.
func addDumpEvents(t *model.Trace, d *model.FRDump, lazy bool, maxMem int64) error {
	if !lazy {
		addFREvents(t, d)
		return nil
	}
	a := frAdder{t: t, d: d, stream: -1}
	return eachEntry(d.Path, maxMem, a.add)
}
