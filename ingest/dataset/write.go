package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/model"
)

// rowGroupRows bounds a row group so that a reader can stream a file.
const rowGroupRows = 128 * 1024

// Table file names inside a dataset directory.
const (
	ranksFile      = "ranks.parquet"
	streamsFile    = "streams.parquet"
	commsFile      = "comms.parquet"
	collsFile      = "collectives.parquet"
	samplesFile    = "samples.parquet"
	sampleGPUsFile = "sample_gpus.parquet"
	skippedFile    = "skipped.parquet"
	eventsDir      = "events"
)

var tableFiles = []string{ranksFile, streamsFile, commsFile, collsFile, samplesFile, sampleGPUsFile, skippedFile}

// Write stores t in dir as a dataset, creating dir if needed. A dataset
// already in dir is replaced; a non-empty directory that is not a dataset is
// left alone and gives an error. t is not modified: unsorted events are
// written in sorted order. Write fills m's SchemaVersion, Ranks, RankEvents,
// counts, World and Absent; an empty Tool becomes "tpptrace", a zero Created becomes now
// and nil Sources become t.Sources.
func Write(dir string, t *model.Trace, m Manifest) (err error) {
	if err := checkColumns(t); err != nil {
		return fmt.Errorf("writing dataset %s: %w", dir, err)
	}
	if err := prepareDir(dir); err != nil {
		return err
	}
	m = fillManifest(t, m)
	w := writer{tool: m.Tool, fast: m.Fast, onlyTimed: m.OnlyTimed}
	if m.Sync {
		w.sync = newSyncer()
		defer func() {
			if serr := w.sync.wait(); err == nil && serr != nil {
				err = fmt.Errorf("syncing dataset %s: %w", dir, serr)
			}
		}()
	}
	if err := writeTables(dir, t, w); err != nil {
		return err
	}
	if err := writeCounters(dir, t, w); err != nil {
		return err
	}
	ranks, counts, err := writeEvents(dir, t, w)
	if err != nil {
		return err
	}
	m.Ranks, m.RankEvents = ranks, counts
	if err := writeManifest(dir, m); err != nil {
		return fmt.Errorf("writing dataset manifest: %w", err)
	}
	w.sync.add(filepath.Join(dir, ManifestFile))
	w.sync.add(filepath.Join(dir, eventsDir))
	w.sync.add(dir)
	return nil
}

func fillManifest(t *model.Trace, m Manifest) Manifest {
	m.SchemaVersion = SchemaVersion
	m.Tool = cmpOr(m.Tool, "tpptrace")
	if m.Created.IsZero() {
		m.Created = time.Now().UTC()
	}
	if m.Sources == nil {
		m.Sources = t.Sources
	}
	m.Events, m.Streams, m.Comms = int64(t.Events.Len()), int64(len(t.Streams)), int64(len(t.Comms))
	m.Collectives, m.Samples, m.SampleGPUs = int64(t.Colls.Len()), int64(t.Samples.Len()), int64(len(t.SampleGPUs))
	m.Skipped = int64(len(t.Skipped))
	m.World, m.Absent = t.World, t.Absent
	return m
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// checkColumns rejects column slices of different lengths, which would
// otherwise index out of range.
func checkColumns(t *model.Trace) error {
	ev, n := &t.Events, t.Events.Len()
	for _, l := range []int{len(ev.Rank), len(ev.Stream), len(ev.Kind), len(ev.Name), len(ev.Dur), len(ev.Corr), len(ev.Iter), len(ev.Micro), len(ev.Coll)} {
		if l != n {
			return errors.New("event columns have different lengths")
		}
	}
	c := &t.Colls
	for _, l := range []int{len(c.Bytes), len(c.DType), len(c.Comm), len(c.Seq), len(c.Peer), len(c.GroupSize)} {
		if l != c.Len() {
			return errors.New("collective columns have different lengths")
		}
	}
	return nil
}

// prepareDir creates dir, or empties the dataset in it. The manifest goes
// first so that an interrupted write never leaves a directory that looks
// complete.
func prepareDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return fmt.Errorf("writing dataset: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	if !IsDataset(dir) {
		return fmt.Errorf("writing dataset: %s is not empty and holds no %s; not overwriting it", dir, ManifestFile)
	}
	return clearDataset(dir)
}

func clearDataset(dir string) error {
	for _, name := range append([]string{ManifestFile, countersFile}, tableFiles...) {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("replacing dataset: %w", err)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, eventsDir)); err != nil {
		return fmt.Errorf("replacing dataset: %w", err)
	}
	return nil
}

// writer is who writes the files, whether for speed (Manifest.Fast), and
// what syncs each file once written (Manifest.Sync; nil: nothing).
type writer struct {
	tool      string
	fast      bool
	onlyTimed bool // Manifest.OnlyTimed
	sync      *syncer
}

// writeOptions are the writer options of every file of the dataset.
func writeOptions(w writer, table string) []parquet.WriterOption {
	tool := w.tool
	app, version, _ := strings.Cut(tool, " ")
	opts := []parquet.WriterOption{
		parquet.Compression(&parquet.Zstd),
		parquet.MaxRowsPerRowGroup(rowGroupRows),
		parquet.CreatedBy(app, version, ""),
		parquet.KeyValueMetadata(metaSchemaVersion, strconv.Itoa(SchemaVersion)),
		parquet.KeyValueMetadata(metaTool, tool),
		parquet.KeyValueMetadata(metaTable, table),
	}
	if w.fast {
		opts = append(opts, fastOptions()...)
	}
	return opts
}

// Parquet key-value metadata keys.
const (
	metaSchemaVersion = "tpptrace.schema_version"
	metaTool          = "tpptrace.tool"
	metaTable         = "tpptrace.table"
)

// writeFile writes rows to path as one Parquet file.
func writeFile[T any](path string, rows []T, opts []parquet.WriterOption, extra ...parquet.WriterOption) error {
	return writeParquet(path, append(opts, extra...), func(w *parquet.GenericWriter[T]) error {
		_, err := w.Write(rows)
		return err
	})
}

// writeParquet creates path as a Parquet file of rows of T written with
// opts; fill writes the rows. Errors after the file is created name it.
func writeParquet[T any](path string, opts []parquet.WriterOption, fill func(*parquet.GenericWriter[T]) error) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("%s: %w", path, cerr)
		}
	}()
	w := parquet.NewGenericWriter[T](f, opts...)
	if err := fill(w); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
