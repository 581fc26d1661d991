package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tpptrace/tpptrace/model"
)

// SchemaVersion is the version of the dataset layout this package writes.
// Read accepts datasets of this version or older.
const SchemaVersion = 2

// ManifestFile is the name of the manifest inside a dataset directory.
const ManifestFile = "manifest.json"

// ErrNewerSchema is returned (wrapped, naming the file) when a dataset was
// written by a newer tpptrace than this one.
var ErrNewerSchema = errors.New("dataset schema is newer than this program supports")

// Manifest describes a dataset. It is stored as manifest.json with
// snake_case keys. Write fills SchemaVersion, Ranks, RankEvents, the
// counts, World and Absent itself; the caller provides Tool, Created and Sources (Sources
// defaults to the trace's, Created to now).
type Manifest struct {
	SchemaVersion int
	Tool          string    // producer and version, "tpptrace v0.3.0"
	Created       time.Time // when the dataset was written
	Sources       []model.Source
	Ranks         []int32 // every rank that has an events file, ascending
	RankEvents    []int64 // events per rank, parallel to Ranks
	Events        int64   // total events
	Streams       int64
	Comms         int64
	Collectives   int64
	Samples       int64
	SampleGPUs    int64
	Skipped       int64 // rows in skipped.parquet
	// World and Absent are the trace's declared job sizes and the
	// communicator members it lists without a trace (model.Trace.World,
	// Absent): small, so kept here rather than in a table.
	World  []model.WorldDecl
	Absent []model.AbsentMembers

	// Fast writes for speed (a cache entry: written often, read soon):
	// snappy, no page statistics or bounds (fastOptions); it is not stored.
	Fast bool
	// Sync has Write fsync every file as soon as it is written, in the
	// background, and the directories last, and return once all are on
	// disk (a cache entry, renamed into place once complete); it is not
	// stored.
	Sync bool
	// OnlyTimed writes an events file only for the ranks that have
	// events, not for every rank of the rank table, so that Ranks lists
	// those only: for a dataset only ever read whole (Read), such as a
	// cache entry's NCCL logs, which name every rank and hold no event;
	// it is not stored.
	OnlyTimed bool
}

type sourceJSON struct {
	Path    string `json:"path"`
	Format  string `json:"format"`
	Version string `json:"version,omitempty"`
	Size    int64  `json:"size"`
}

type worldJSON struct {
	Size  int32  `json:"size"`
	By    string `json:"by"`
	Count int32  `json:"count"`
}

type absentJSON struct {
	Comm  string  `json:"comm"`
	Ranks []int32 `json:"ranks"`
}

type manifestJSON struct {
	SchemaVersion int          `json:"schema_version"`
	Tool          string       `json:"tool"`
	Created       time.Time    `json:"created"`
	Sources       []sourceJSON `json:"sources"`
	Ranks         []int32      `json:"ranks"`
	RankEvents    []int64      `json:"rank_events"`
	Events        int64        `json:"events"`
	Streams       int64        `json:"streams"`
	Comms         int64        `json:"comms"`
	Collectives   int64        `json:"collectives"`
	Samples       int64        `json:"samples"`
	SampleGPUs    int64        `json:"sample_gpus"`
	Skipped       int64        `json:"skipped"`
	World         []worldJSON  `json:"world,omitempty"`
	Absent        []absentJSON `json:"absent_members,omitempty"`
}

// MarshalJSON writes the manifest with snake_case keys.
func (m Manifest) MarshalJSON() ([]byte, error) {
	j := manifestJSON{SchemaVersion: m.SchemaVersion, Tool: m.Tool, Created: m.Created, Sources: make([]sourceJSON, len(m.Sources)),
		Ranks: nonNil(m.Ranks), RankEvents: nonNil(m.RankEvents), Events: m.Events, Streams: m.Streams, Comms: m.Comms,
		Collectives: m.Collectives, Samples: m.Samples, SampleGPUs: m.SampleGPUs, Skipped: m.Skipped}
	for i, s := range m.Sources {
		j.Sources[i] = sourceJSON{s.Path, s.Format, s.Version, s.Size}
	}
	for _, d := range m.World {
		j.World = append(j.World, worldJSON{d.Size, d.By, d.Count})
	}
	for _, a := range m.Absent {
		j.Absent = append(j.Absent, absentJSON{a.Comm, a.Ranks})
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a manifest written by MarshalJSON.
func (m *Manifest) UnmarshalJSON(b []byte) error {
	var j manifestJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*m = Manifest{SchemaVersion: j.SchemaVersion, Tool: j.Tool, Created: j.Created, Ranks: j.Ranks, RankEvents: j.RankEvents,
		Events: j.Events, Streams: j.Streams, Comms: j.Comms, Collectives: j.Collectives, Samples: j.Samples,
		SampleGPUs: j.SampleGPUs, Skipped: j.Skipped}
	for _, s := range j.Sources {
		m.Sources = append(m.Sources, model.Source{Path: s.Path, Format: s.Format, Version: s.Version, Size: s.Size})
	}
	for _, d := range j.World {
		m.World = append(m.World, model.WorldDecl{Size: d.Size, By: d.By, Count: d.Count})
	}
	for _, a := range j.Absent {
		m.Absent = append(m.Absent, model.AbsentMembers{Comm: a.Comm, Ranks: a.Ranks})
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// IsDataset reports whether dir holds a dataset manifest.
func IsDataset(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, ManifestFile))
	return err == nil && fi.Mode().IsRegular()
}

// ReadManifest reads and checks dir's manifest without reading any table.
func ReadManifest(dir string) (Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return Manifest{}, fmt.Errorf("reading dataset manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := m.check(); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

func (m *Manifest) check() error {
	switch {
	case m.SchemaVersion > SchemaVersion:
		return fmt.Errorf("%w: version %d, supported %d", ErrNewerSchema, m.SchemaVersion, SchemaVersion)
	case m.SchemaVersion < 1:
		return fmt.Errorf("schema version %d is not valid", m.SchemaVersion)
	case len(m.RankEvents) != len(m.Ranks):
		return fmt.Errorf("%d ranks but %d rank event counts", len(m.Ranks), len(m.RankEvents))
	}
	return nil
}

func writeManifest(dir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, ManifestFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
