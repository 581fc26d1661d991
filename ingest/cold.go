package ingest

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/flightrec"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/nccl/inspector"
	"github.com/tpptrace/tpptrace/ingest/nccl/ncclog"
	"github.com/tpptrace/tpptrace/ingest/nccl/profiler"
	"github.com/tpptrace/tpptrace/ingest/nvml"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// The estimate of a job's events before it is read (LoadRankedCold), from
// its files' sizes: uncompressed bytes (a gzip file's trailer says them)
// per event. Generated Kineto traces take 328 B an event, the public ones
// 340–370 B (docs/memory.md); generated nsys exports 90 B.
const (
	KinetoBytesPerEvent = 320
	NsysBytesPerEvent   = 90
)

// ShardEvents is how many events, as estimated, one shard of a cold read
// rank by rank (LoadRankedCold) holds at most: the shards are read one
// after another, so the read holds about this many events at a time
// (about 160 MiB, docs/memory.md).
const ShardEvents = 1_000_000

// shardEvents is ShardEvents, lowered by tests for more shards.
var shardEvents int64 = ShardEvents

// cacheManifest is the manifest of the cache's datasets.
var cacheManifest = dataset.Manifest{Tool: "tpptrace (cache)", Fast: true}

// LoadRankedCold is LoadRankedCached of an entry not written yet: when
// paths are trace files of one timeline format IngestShard reads (Kineto
// traces, or nsys exports), of at least minEvents events as their sizes
// estimate them, with nothing else beside them but files of besideFormats
// (NCCL logs, NVML samples, Flight Recorder dumps, NCCL profiler traces,
// NCCL Inspector records), it writes their cache entry as a sharded
// dataset of about ShardEvents events a shard, read one shard after
// another, and the files beside, read whole first, as one dataset per
// format beside the shards (BesideDir), and reads that rank by rank
// (ShardedRanked, whose Model merges them as Load does). The events of
// timed dumps and verbose records (a Fallback part) are those Merge drops
// when every rank they time has events in the shards: the part is then
// written reduced (besideParts), and otherwise the inputs go to the whole
// read, the shards read for nothing. Warnings and progress are those of
// Load. ok is false, with nothing kept or said, for other
// inputs, and also when building the entry failed for another reason than
// ctx or the memory budget (LoadCached then reads the inputs whole, and
// says what is wrong).
func LoadRankedCold(ctx context.Context, paths []string, opts source.Options, cacheDir string, minEvents int64, annotation func(name string) bool) (Ranked, bool, error) {
	p, ok := planCold(paths, opts, cacheDir, minEvents)
	if !ok {
		return nil, false, nil
	}
	return p.load(ctx, paths, opts, annotation)
}

// LoadRankedTemp is LoadRankedCold for a run that keeps no cache: the
// entry is written in a temporary directory (TempCache in cacheDir), made
// only once the inputs are found to qualify; remove deletes it, and the
// caller calls it once it no longer reads the Ranked. When ok is false or
// err is not nil, nothing is left and remove is nil.
func LoadRankedTemp(ctx context.Context, paths []string, opts source.Options, cacheDir string, minEvents int64, annotation func(name string) bool) (rk Ranked, remove func(), ok bool, err error) {
	p, ok := planInputs(paths, opts, minEvents)
	if !ok {
		return nil, nil, false, nil
	}
	p.root, remove, err = TempCache(cacheDir)
	if err != nil {
		return nil, nil, false, nil // nowhere to write it: the whole read
	}
	p.entry = filepath.Join(p.root, p.key)
	rk, ok, err = p.load(ctx, paths, opts, annotation)
	if !ok || err != nil {
		remove()
		return nil, nil, ok, err
	}
	return rk, remove, true, nil
}

// load reads the files beside the timeline, then builds the entry and
// reads it rank by rank (LoadRankedCold). Files beside that hold events
// other than a Fallback part's (or cannot be read) leave the inputs to the
// whole read before anything is written or warned of. A Fallback part
// that times a rank the shards hold no events of does so once the shards
// are read (build: errTimelineMissing): its warnings, and those before,
// are held until then (holdWarnings) and not said.
func (p *coldPlan) load(ctx context.Context, paths []string, opts source.Options, annotation func(name string) bool) (Ranked, bool, error) {
	ok, err := p.readFilesBeside(ctx, paths, &opts)
	if !ok || err != nil {
		return nil, ok, err
	}
	if err := p.build(ctx, opts); err != nil {
		if ctx.Err() != nil || errors.Is(err, source.ErrMemoryBudget) {
			p.sayHeld()
			return nil, true, errors.Join(ctx.Err(), err)
		}
		return nil, false, nil
	}
	sr, err := p.open(annotation)
	if err != nil {
		os.RemoveAll(p.entry) // the whole read says what is wrong
		return nil, false, nil
	}
	p.sayHeld()
	return sr, true, nil
}

// readFilesBeside reads the files beside the timeline whole, their warnings
// kept for later (readBesideGroups), then warns of the inputs skipped, as
// Load does; ok is false, with nothing said, when those files hold events
// other than a Fallback part's or cannot be read. When a Fallback part was
// reduced (besideParts), opts.Warn is held
// from here on (holdWarnings). A cancelled read or the memory budget is an
// error.
func (p *coldPlan) readFilesBeside(ctx context.Context, paths []string, opts *source.Options) (ok bool, err error) {
	p.side, err = readBesideGroups(ctx, p.beside, *opts)
	if err != nil && ctx.Err() == nil && !errors.Is(err, source.ErrMemoryBudget) {
		return false, nil
	}
	if len(p.side.timed) > 0 {
		p.holdWarnings(opts)
	}
	warnSkips(*opts, paths, p.sniffed, p.in.skipped)
	if err != nil {
		p.sayHeld()
		return true, errors.Join(ctx.Err(), err)
	}
	return true, nil
}

// holdWarnings has opts.Warn's warnings held, in order, until sayHeld, and
// the shards note the ranks they hold events of (timeline): a build that
// finds a rank a Fallback part times without one gives the inputs to the
// whole read, which says them.
func (p *coldPlan) holdWarnings(opts *source.Options) {
	p.timeline = map[int32]bool{}
	if opts.Warn != nil {
		p.warn, p.held = opts.Warn, &source.Warnings{}
		opts.Warn = p.held.Add
	}
}

// sayHeld says the warnings held (holdWarnings), in order, once.
func (p *coldPlan) sayHeld() {
	if p.held != nil {
		sayWarnings(p.warn, p.held.Msgs())
		p.held = nil
	}
}

// errTimelineMissing says that a Fallback part beside the timeline times a
// rank the timeline holds no events of: Merge keeps those events, which
// the shards cannot serve, so the inputs go to the whole read.
var errTimelineMissing = errors.New("a rank the files beside time has no timeline")

// coldPlan is how LoadRankedCold builds one cache entry.
type coldPlan struct {
	in          inputs
	paths       []string     // the inputs as given
	sniffed     []model.Skip // the inputs no format claims
	format      string       // kineto.Format.Name or nsysFormat
	files       []string     // the format's files
	beside      []besideGroup
	side        besideParts // beside's traces, read whole (readBesideGroups); their warnings said after the shards'
	key         string      // the entry's name (cacheKey)
	root, entry string
	prune       bool // the root is our own: older entries are removed
	n           int  // shards

	timeline map[int32]bool // the ranks the shards hold events of; nil: not noted (holdWarnings)
	warn     func(string)   // where the held warnings go
	held     *source.Warnings
}

// planCold checks the inputs and the cache and estimates the job.
func planCold(paths []string, opts source.Options, cacheDir string, minEvents int64) (*coldPlan, bool) {
	p, ok := planInputs(paths, opts, minEvents)
	if !ok {
		return nil, false
	}
	if p.root = cacheRoot(paths[0], cacheDir); p.root == "" {
		return nil, false
	}
	p.entry, p.prune = filepath.Join(p.root, p.key), cacheDir == ""
	if _, err := os.Stat(p.entry); err == nil {
		return nil, false // an entry LoadCached reads (or rebuilds)
	}
	return p, true
}

// planInputs checks the inputs and estimates the job; the plan has no
// place to write the entry yet.
func planInputs(paths []string, opts source.Options, minEvents int64) (p *coldPlan, ok bool) {
	in, err := expand(paths)
	if err != nil || len(in.files) == 0 || len(in.datasets)+len(in.sharded) > 0 {
		return nil, false
	}
	key, err := cacheKey(in.files, opts)
	if err != nil {
		return nil, false
	}
	p = &coldPlan{in: in, paths: paths, key: key}
	groups, skipped := sniffAll(in.files, Formats())
	if p.format = shardFormat(groups); p.format == "" {
		return nil, false
	}
	if p.beside, ok = besideGroups(groups, p.format); !ok {
		return nil, false
	}
	p.files, p.sniffed = groups[p.format], skipped.Skipped
	est := estimateEvents(p.files, p.format)
	if est < minEvents {
		return nil, false
	}
	p.n = int(min(max((est+shardEvents-1)/shardEvents, 1), int64(len(p.files))))
	return p, true
}

// besideFormats are the formats a read rank by rank reads whole beside
// the timeline's shards: they hold no events (ranks, communicators, GPU
// samples), so that merging them into the cross-rank rows (the
// ShardedRanked's Model) is merging them into every event (Load). Flight
// Recorder dumps with timed entries and verbose Inspector records do give
// events (a Fallback part), which Merge drops for the ranks with a
// timeline, after adding the part's streams, names and collectives: a
// read rank by rank merges the part without them (besideParts), and is
// Load's only when every rank it times has a timeline (docs/performance.md
// rounds 36 and 39).
var besideFormats = map[string]bool{ncclog.Format.Name: true, nvml.Formats[0].Name: true,
	flightrec.Format.Name: true, profiler.Format.Name: true, inspector.Format.Name: true}

// besideGroup is one beside format and its files.
type besideGroup struct {
	format source.Format
	files  []string
}

// besideGroups lists the groups other than the timeline format's, in the
// order Load reads them (Formats); ok is false when one is not of
// besideFormats.
func besideGroups(groups map[string][]string, timeline string) ([]besideGroup, bool) {
	var out []besideGroup
	for _, f := range Formats() {
		files := groups[f.Name]
		switch {
		case len(files) == 0 || f.Name == timeline:
		case !besideFormats[f.Name]:
			return nil, false
		default:
			out = append(out, besideGroup{f, files})
		}
	}
	return out, true
}

// estimateEvents is the number of events files of format hold, as their
// uncompressed sizes estimate it.
func estimateEvents(files []string, format string) int64 {
	per := int64(KinetoBytesPerEvent)
	if format == nsysFormat {
		per = NsysBytesPerEvent
	}
	var sum int64
	for _, f := range files {
		sum += uncompressedSize(f)
	}
	return sum / per
}

// uncompressedSize is a file's size, or a gzip file's uncompressed size
// as its trailer says it (modulo 4 GiB: the smallest such size not below
// the compressed one).
func uncompressedSize(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	var b [4]byte
	if _, err := f.ReadAt(b[:2], 0); err != nil || b[0] != 0x1f || b[1] != 0x8b || st.Size() < 18 {
		return st.Size()
	}
	if _, err := f.ReadAt(b[:], st.Size()-4); err != nil && !errors.Is(err, io.EOF) {
		return st.Size()
	}
	n := int64(binary.LittleEndian.Uint32(b[:]))
	for n < st.Size() {
		n += 1 << 32
	}
	return n
}

// build writes the entry: the shards into a partial directory, renamed to
// the entry once complete (commitEntry), then prunes older entries.
func (p *coldPlan) build(ctx context.Context, opts source.Options) error {
	return storeEntry(p.root, p.entry, p.prune, func(tmp string) error {
		if err := p.writeShards(ctx, tmp, opts); err != nil {
			return err
		}
		if !p.side.covered(func(r int32) bool { return p.timeline[r] }) {
			return errTimelineMissing
		}
		sayWarnings(opts.Warn, p.side.warns) // after the timeline's, as Load says them
		return p.writeBeside(tmp)
	})
}

// writeBeside writes each beside format's trace, read whole (load), as
// dataset BesideDir(tmp, i).
func (p *coldPlan) writeBeside(tmp string) error {
	for i, g := range p.beside {
		if err := dataset.Write(BesideDir(tmp, i), absolute(p.side.traces[i]), besideManifest); err != nil {
			return fmt.Errorf("%s beside the shards: %w", g.format.Name, err)
		}
	}
	return nil
}

// read reads the group's files whole, as Load reads them, within the
// memory budget; they must hold no events but a Fallback part's (timed
// Flight Recorder entries, verbose Inspector records: the events of the
// ranks without a timeline, which Merge drops for the others and
// readBesideGroups reduces, model.Trace.DropFallback).
func (g besideGroup) read(ctx context.Context, opts source.Options) (*model.Trace, error) {
	t, err := g.format.Read(ctx, g.files, opts)
	if err == nil {
		err = source.CheckMemory(opts.MaxMemory)
	}
	if err == nil && t.Events.Len() > 0 && !t.Fallback {
		err = fmt.Errorf("%d events", t.Events.Len())
	}
	return t, err
}

// writeShards reads and writes shard 0..n-1 in turn, each read in parallel
// over its files, and says the files that could not be read as Load does.
func (p *coldPlan) writeShards(ctx context.Context, tmp string, opts source.Options) error {
	prog := newShardProgress(p.files, p.n, opts.Progress)
	var failed []model.Skip
	read := 0
	for k := range p.n {
		sopts := opts
		sopts.Progress = prog.of(k)
		meta, err := p.writeShard(ctx, tmp, k, sopts)
		if err != nil {
			return err
		}
		failed, read = append(failed, meta.Failed...), read+len(meta.files)
		if meta.Nsys != nil {
			read += meta.Nsys.Read
		}
	}
	if p.format != nsysFormat {
		kineto.WarnJobFailed(failed, len(p.files), opts)
	}
	if read == 0 {
		return errors.New("no file of the job could be read")
	}
	return nil
}

// writeShard reads shard k and writes it under tmp, with its paths
// absolute (as commitEntry stores them), and releases it.
func (p *coldPlan) writeShard(ctx context.Context, tmp string, k int, opts source.Options) (shardMeta, error) {
	meta := shardMeta{Shard: k, Of: p.n}
	if k == 0 {
		meta.Trailing = append(slices.Clone(p.sniffed), p.in.skipped...)
	}
	read := readKinetoJobShard
	if p.format == nsysFormat {
		read = readNsysShard
	}
	t, err := read(ctx, p.files, opts, k, p.n, &meta)
	if err == nil {
		err = source.CheckMemory(opts.MaxMemory)
	}
	if err != nil {
		return meta, fmt.Errorf("shard %d/%d: %w", k, p.n, err)
	}
	p.noteTimeline(t)
	return meta, writeShard(ShardDir(tmp, k), absolute(t), absoluteMeta(meta), cacheManifest)
}

// noteTimeline notes the ranks t holds events of, when asked to
// (holdWarnings).
func (p *coldPlan) noteTimeline(t *model.Trace) {
	if p.timeline == nil {
		return
	}
	for i, r := range t.Events.Rank {
		if i == 0 || r != t.Events.Rank[i-1] {
			p.timeline[r] = true
		}
	}
}

// absoluteMeta is meta with the paths of its skip records absolute; the
// files' paths stay as they are, the join's keys only.
func absoluteMeta(meta shardMeta) shardMeta {
	meta.Failed, meta.Trailing = absSkips(meta.Failed), absSkips(meta.Trailing)
	if meta.Nsys != nil {
		info := *meta.Nsys
		info.Failed, info.Exported = absSkips(info.Failed), absSkips(info.Exported)
		meta.Nsys = &info
	}
	return meta
}

func absSkips(skips []model.Skip) []model.Skip {
	out := slices.Clone(skips)
	for i := range out {
		out[i].Source = absPath(out[i].Source)
	}
	return out
}

// open reads the entry rank by rank, with the inputs' names as this run
// gives them.
func (p *coldPlan) open(annotation func(name string) bool) (*ShardedRanked, error) {
	sr, err := readShardedRanked(p.entry, annotation)
	if err != nil {
		return nil, err
	}
	if err := sr.trace.Validate(); err != nil {
		return nil, fmt.Errorf("the trace is invalid: %w", err)
	}
	relocate(sr.trace, namesOf(p.in.files, p.paths))
	return sr, nil
}

// shardProgress reports the bytes read of every shard's files as one
// read's: a shard's reader counts its own files only.
type shardProgress struct {
	fn     func(done, total int64)
	before []int64 // bytes of the shards before shard k
	total  int64
}

func newShardProgress(files []string, n int, fn func(done, total int64)) *shardProgress {
	p := &shardProgress{fn: fn, before: make([]int64, n)}
	for k := range n {
		p.before[k] = p.total
		for _, f := range files[k*len(files)/n : (k+1)*len(files)/n] {
			if st, err := os.Stat(f); err == nil {
				p.total += st.Size()
			}
		}
	}
	return p
}

// of is shard k's progress function, nil when there is none.
func (p *shardProgress) of(k int) func(done, total int64) {
	if p.fn == nil {
		return nil
	}
	return func(done, _ int64) { p.fn(p.before[k]+done, p.total) }
}
