package ingest

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/nsys"
	"github.com/tpptrace/tpptrace/model"
)

// ShardedRanked is a sharded dataset read rank by rank (LoadRanked,
// docs/sharding.md): the join of the shards' cross-rank rows (each shard
// read with dataset.ReadRanked), and each rank's events read again from its
// shard's file and renumbered as the join renumbered that shard's rows.
// The join moves a shard's rows only as a block (names, streams and
// collectives renumbered, nsys times moved by one shift), so a rank's
// events in its file are, renumbered, its rows of the whole join. One
// dataset with files beside it is read as a sharded dataset of one shard
// that needs no join (readDatasetWith).
type ShardedRanked struct {
	trace  *model.Trace
	shards []*dataset.Ranked
	maps   []shardMap
	shard  map[int32]int // rank -> its shard
	local  []int32       // row of trace -> its row in its rank's events file
	timed  []int32
	events int64

	trailing []model.Skip // the shards' skip records of inputs no format claims, for warnings
}

// shardMap is how the join renumbered one shard's rows.
type shardMap struct {
	names, streams []int32 // the shard's ids -> the job's
	coll, colls    int32   // the job's index of the shard's first collective; the shard's collectives
	shift          int64   // added to the shard's times (nsys: its clock base to the job's)
}

// rankRows is what a shard's cross-rank trace holds of one rank before
// the join: each row's row in the rank's events file, and its start.
type rankRows struct {
	local []int32
	start []int64
}

// readShardedRanked reads the shards under root rank by rank and joins
// their cross-rank rows, then merges in the datasets beside them
// (BesideDir: no events) and the trailing skip records as Load does.
func readShardedRanked(root string, annotation func(name string) bool) (*ShardedRanked, error) {
	return readShardedRankedWith(root, annotation, nil, nil)
}

// readShardedRankedWith is readShardedRanked that merges the extra parts
// (no events) after the datasets beside the shards, and skips in place of
// the shards' trailing skip records (nil: those).
func readShardedRankedWith(root string, annotation func(name string) bool, extra []*model.Trace, skips []model.Skip) (*ShardedRanked, error) {
	in := newListIntern()
	metas, err := shardMetas(root, in)
	if err != nil {
		return nil, err
	}
	sr := &ShardedRanked{shard: map[int32]int{}}
	traces := make([]*model.Trace, len(metas))
	rows := map[int32]rankRows{}
	var trailing []model.Skip
	for k, meta := range metas {
		rk, _, err := dataset.ReadRanked(ShardDir(root, k), annotation)
		if err != nil {
			return nil, fmt.Errorf("shard %d/%d: %w", k, len(metas), err)
		}
		internComms(rk.Trace, in)
		sr.addShard(k, rk, rows)
		traces[k], trailing = rk.Trace, append(trailing, meta.Trailing...)
	}
	shiftTimes(sr.maps, metas)
	join := joinKineto
	if metas[0].Format == nsysFormat {
		join = joinNsys
	}
	t, err := join(traces, metas)
	var beside []*model.Trace
	if err == nil {
		beside, err = readBeside(root)
	}
	if skips == nil {
		skips = trailing
	}
	if err == nil {
		parts := append(append([]*model.Trace{t}, beside...), extra...)
		t, err = model.MergeOwned(append(parts, &model.Trace{Skipped: skips})...)
	}
	if err != nil {
		return nil, fmt.Errorf("joining the shards of %s: %w", root, err)
	}
	sr.trailing = trailing
	return sr, sr.bind(t, rows)
}

// addShard notes shard k's ranks, collectives and cross-rank rows.
func (sr *ShardedRanked) addShard(k int, rk *dataset.Ranked, rows map[int32]rankRows) {
	m := shardMap{colls: int32(rk.Trace.Colls.Len())}
	if k > 0 {
		last := sr.maps[k-1]
		m.coll = last.coll + last.colls
	}
	sr.shards, sr.maps = append(sr.shards, rk), append(sr.maps, m)
	sr.events += rk.EventCount()
	ev := &rk.Trace.Events
	for _, r := range rk.TimedRanks() {
		sr.shard[r] = k
		lo, hi := ev.RankRange(r)
		rr := rankRows{local: make([]int32, hi-lo), start: slices.Clone(ev.Start[lo:hi])}
		for j := lo; j < hi; j++ {
			rr.local[j-lo] = rk.Local(int32(j))
		}
		rows[r] = rr
	}
}

// shiftTimes sets each nsys shard's shift: its clock base to the job's,
// as nsys.Join moves it.
func shiftTimes(maps []shardMap, metas []shardMeta) {
	if metas[0].Format != nsysFormat {
		return
	}
	infos := make([]nsys.ShardInfo, 0, len(metas))
	for _, meta := range metas {
		if meta.Nsys != nil {
			infos = append(infos, *meta.Nsys)
		}
	}
	base := nsys.JobBase(infos)
	for k, meta := range metas {
		if meta.Nsys != nil && meta.Nsys.Read > 0 {
			maps[k].shift = meta.Nsys.Base - base
		}
	}
}

// bind takes the joined trace t: the shards' name and stream ids in it,
// and each of its rows' row in its rank's file, checking that every rank's
// rows are its shard's, in order.
func (sr *ShardedRanked) bind(t *model.Trace, rows map[int32]rankRows) error {
	sr.trace = t
	streams := map[model.Stream]int32{}
	for i, s := range t.Streams {
		streams[streamKey(s)] = int32(i)
	}
	for k, rk := range sr.shards {
		m := &sr.maps[k]
		m.names = make([]int32, rk.Trace.Names.Len())
		for i, s := range rk.Trace.Names.All() {
			m.names[i] = t.Names.Intern(s)
		}
		m.streams = make([]int32, len(rk.Trace.Streams))
		for i, s := range rk.Trace.Streams {
			m.streams[i] = -1
			if j, ok := streams[streamKey(s)]; ok {
				m.streams[i] = j
			}
		}
	}
	return sr.bindRows(rows)
}

// streamKey is what AddStream tells streams apart by.
func streamKey(s model.Stream) model.Stream { return model.Stream{Rank: s.Rank, GPU: s.GPU, ID: s.ID} }

// bindRows maps the joined trace's rows to their rows in their ranks'
// files.
func (sr *ShardedRanked) bindRows(rows map[int32]rankRows) error {
	ev := &sr.trace.Events
	sr.local = make([]int32, ev.Len())
	n := 0
	for r, rr := range rows {
		lo, hi := ev.RankRange(r)
		shift := sr.maps[sr.shard[r]].shift
		if hi-lo != len(rr.local) {
			return fmt.Errorf("joining the shards: rank %d has %d cross-rank rows joined, %d in its shard", r, hi-lo, len(rr.local))
		}
		for j := lo; j < hi; j++ {
			if ev.Start[j] != rr.start[j-lo]+shift {
				return fmt.Errorf("joining the shards: rank %d's rows were reordered by the join", r)
			}
			sr.local[j] = rr.local[j-lo]
		}
		n += hi - lo
	}
	if n != ev.Len() {
		return fmt.Errorf("joining the shards: %d of %d cross-rank rows come from no shard's rank", ev.Len()-n, ev.Len())
	}
	for _, r := range sr.trace.Ranks {
		if _, ok := sr.shard[r.Rank]; ok {
			sr.timed = append(sr.timed, r.Rank)
		}
	}
	return nil
}

// Model is the joined cross-rank trace.
func (sr *ShardedRanked) Model() *model.Trace { return sr.trace }

// TimedRanks lists the ranks that have events, in the trace's rank order.
func (sr *ShardedRanked) TimedRanks() []int32 { return sr.timed }

// Local maps a row of Model to the row of the same event in its rank's
// events (RankEvents).
func (sr *ShardedRanked) Local(row int32) int32 { return sr.local[row] }

// EventCount is the number of events of every shard, as their manifests
// say.
func (sr *ShardedRanked) EventCount() int64 { return sr.events }

// RankEvents reads rank's events file from its shard, renumbered as the
// join renumbered the shard's rows: a trace with those events and Model's
// tables, each cross-rank row carrying the collective Model has for it
// now, linked.
func (sr *ShardedRanked) RankEvents(rank int32) (*model.Trace, error) {
	k, ok := sr.shard[rank]
	if !ok {
		return &model.Trace{}, nil
	}
	ev, ok, err := sr.shards[k].FileEvents(rank)
	if err != nil || !ok {
		return &model.Trace{}, err
	}
	sr.maps[k].apply(ev)
	v := *sr.trace
	v.Events = *ev
	lo, hi := sr.trace.Events.RankRange(rank)
	for j := lo; j < hi; j++ {
		if l := sr.local[j]; int(l) < ev.Len() {
			v.Events.Coll[l] = sr.trace.Events.Coll[j]
		}
	}
	if err := dataset.CheckRankRows(&v, rank); err != nil {
		return nil, fmt.Errorf("reading shard %d: %w", k, err)
	}
	v.Events.Link()
	return &v, nil
}

// apply renumbers a shard's events as model.Merge renumbers a part's, and
// moves their times by the shard's shift.
func (m *shardMap) apply(ev *model.Events) {
	for i := range ev.Len() {
		ev.Name[i] = max(lookup(m.names, ev.Name[i]), 0)
		ev.Stream[i] = lookup(m.streams, ev.Stream[i])
		if c := ev.Coll[i]; c >= 0 && c < m.colls {
			ev.Coll[i] = c + m.coll
		} else {
			ev.Coll[i] = -1
		}
		ev.Start[i] += m.shift
	}
}

// lookup is m[i], -1 out of range.
func lookup(m []int32, i int32) int32 {
	if i < 0 || int(i) >= len(m) {
		return -1
	}
	return m[i]
}
