package nsys

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// Shard is one shard's part of a job's exports (ReadShard): the merged
// trace of its reports, without the steps that need every report.
type Shard struct {
	Trace *model.Trace
	Info  ShardInfo
}

// ShardInfo is what the join needs of a shard beyond its trace; it is
// kept in the shard's shard.json.
type ShardInfo struct {
	Read int   `json:"read"` // reports read
	Base int64 `json:"base"` // their earliest session start: the shard's times are relative to it
	// Comms is what the shard's reports say of each NCCL communicator.
	Comms []ShardComm `json:"comms,omitempty"`
	// HeadSkips is how many skip records of the trace are its first
	// report's: the unsharded read lists the failed files after them.
	HeadSkips int          `json:"head_skips"`
	Failed    []model.Skip `json:"failed,omitempty"`   // the shard's files that could not be read
	Exported  []model.Skip `json:"exported,omitempty"` // shard 0: reports left out for their export
}

// ShardComm is one communicator as a shard's reports know it.
type ShardComm struct {
	ID      uint64          `json:"id,string"`         // NCCL's commHash, as a string: JSON readers other than Go lose digits past 2^53
	NRanks  int32           `json:"nranks"`            // -1 when no creation payload says
	Members map[int32]int32 `json:"members,omitempty"` // rank within the communicator -> global rank
	Users   []int32         `json:"users,omitempty"`   // global ranks whose kernels used it
}

// ReadShard reads shard k of n of the exports among paths (the k-th of n
// contiguous blocks, after the reports whose export is among paths are
// left out), as Read does, but leaves out the steps that need every
// report: the common clock base and the communicators' members and peers.
// Join does those. Ranks must be known from each report alone (the
// --rank-map, RANK in the captured environment, the file name, or NCCL's
// payloads): a process naming none fails the shard.
func ReadShard(ctx context.Context, paths []string, k, n int, opts source.Options) (*Shard, error) {
	paths, exported := dropExportedReports(paths)
	mine := paths[k*len(paths)/n : (k+1)*len(paths)/n]
	sh := &Shard{Trace: &model.Trace{}}
	if k == 0 {
		sh.Info.Exported = exported
	}
	if len(mine) == 0 {
		return sh, nil
	}
	bs, skips, err := readAll(ctx, mine, opts)
	sh.Info.Failed = skips
	if len(bs) == 0 {
		if len(skips) == 0 {
			return nil, err // cancelled, or the memory budget
		}
		return sh, nil // every file failed: other shards may read theirs
	}
	if err := readShard(sh, bs, opts); err != nil {
		return nil, err
	}
	return sh, nil
}

func readShard(sh *Shard, bs []*builder, opts source.Options) error {
	paths := make([]string, len(bs))
	for i, b := range bs {
		paths[i] = b.path
	}
	ranks, err := shardRanks(bs, paths, opts)
	if err != nil {
		return err
	}
	base := commonBase(bs)
	for i, b := range bs {
		b.finish(ranks[i], base, model.Source{Path: paths[i], Format: formatOf(paths[i]), Version: b.meta.versionText(), Size: size(paths[i])})
	}
	sh.Info.Read, sh.Info.Base, sh.Info.Comms = len(bs), base, shardComms(buildCommTable(bs))
	for _, b := range bs {
		b.placeComms()
		b.noteMissingComms(opts)
	}
	sh.Info.HeadSkips = len(bs[0].tr.Skipped)
	sortAll(bs, workers(opts))
	sh.Trace, err = merge(bs)
	return err
}

// shardRanks is assignRanks without its fallback, which needs every report.
func shardRanks(bs []*builder, paths []string, opts source.Options) ([]map[int32]int32, error) {
	out := make([]map[int32]int32, len(bs))
	for i, b := range bs {
		out[i] = b.localRanks(paths[i], opts)
		for _, pid := range b.pids() {
			if out[i][pid] < 0 {
				return nil, fmt.Errorf("%s: process %d names no rank (no RANK in its environment, none in the file name, the --rank-map or NCCL's payloads): "+
					"a sharded ingest cannot number it; give a --rank-map, or ingest unsharded", paths[i], pid)
			}
		}
	}
	return out, nil
}

// shardComms lists a shard's communicator table, by id.
func shardComms(ct commTable) []ShardComm {
	ids := map[uint64]bool{}
	for c := range ct.byRank {
		ids[c] = true
	}
	for c := range ct.users {
		ids[c] = true
	}
	var out []ShardComm
	for _, c := range slices.Sorted(func(yield func(uint64) bool) {
		for c := range ids {
			if !yield(c) {
				return
			}
		}
	}) {
		sc := ShardComm{ID: c, NRanks: -1, Members: ct.byRank[c]}
		if n, ok := ct.nranks[c]; ok {
			sc.NRanks = n
		}
		for g := range ct.users[c] {
			sc.Users = append(sc.Users, g)
		}
		slices.Sort(sc.Users)
		out = append(out, sc)
	}
	return out
}

// placeComms gives each collective its communicator, without members yet,
// and keeps the peer as the payload states it (a rank within the
// communicator) until Join maps it.
func (b *builder) placeComms() {
	for _, pc := range b.colls {
		if pc.hasComm {
			b.tr.Colls.Comm[pc.coll] = b.tr.AddComm(model.Communicator{ID: commID(pc.comm)})
			b.tr.Colls.Peer[pc.coll] = pc.peer
		}
	}
}

// Join merges the shards of one job, in shard order, and does what
// ReadShard left out, so that the trace equals Read over all the exports.
func Join(shards []*Shard) (*model.Trace, error) {
	var live []*Shard
	for _, sh := range shards {
		if sh.Info.Read > 0 {
			live = append(live, sh)
		}
	}
	if len(live) == 0 {
		return nil, noneRead(shards)
	}
	ct, colls := joinTable(live)
	ct.ordered = orderedComms(ct, colls)
	infos := make([]ShardInfo, len(live))
	for i, sh := range live {
		infos[i] = sh.Info
	}
	base := JobBase(infos)
	parts := make([]*model.Trace, len(live))
	for i, sh := range live {
		rebase(sh.Trace, sh.Info.Base-base, base)
		applyComms(sh.Trace, colls[i], ct)
		parts[i] = sh.Trace
	}
	insertFailed(live[0], shards)
	if len(parts) == 1 && live[0].Info.Read == 1 {
		return parts[0], nil
	}
	t, err := model.Merge(parts...)
	if err != nil {
		return nil, fmt.Errorf("nsys: %w", err)
	}
	return t, nil
}

// JobBase is the clock base Join moves every shard's times to: the
// earliest base of the shards that read a report (a shard's times move by
// its Base minus this); 0 when none did.
func JobBase(infos []ShardInfo) int64 {
	var base int64
	seen := false
	for _, in := range infos {
		if in.Read > 0 && (!seen || in.Base < base) {
			base, seen = in.Base, true
		}
	}
	return base
}

// joinTable builds the communicator table of the whole job and each
// shard's pending collectives.
func joinTable(shards []*Shard) (commTable, [][]pendColl) {
	ct := newCommTable()
	colls := make([][]pendColl, len(shards))
	for i, sh := range shards {
		for _, r := range sh.Trace.Ranks {
			ct.present[r.Rank] = true
		}
		for _, c := range sh.Info.Comms {
			for r, g := range c.Members {
				ct.member(c.ID)[r] = g
			}
			if c.NRanks >= 0 {
				ct.nranks[c.ID] = c.NRanks
			}
			for _, g := range c.Users {
				ct.user(c.ID)[g] = true
			}
		}
		colls[i] = pendingColls(sh.Trace)
	}
	return ct, colls
}

// pendingColls reads back what placeComms left in a shard's collectives.
func pendingColls(t *model.Trace) []pendColl {
	rank := make([]int32, t.Colls.Len())
	ev := &t.Events
	for i := 0; i < ev.Len(); i++ {
		if c := ev.Coll[i]; c >= 0 && int(c) < len(rank) {
			rank[c] = ev.Rank[i]
		}
	}
	var out []pendColl
	for i := range rank {
		c := t.Colls.Comm[i]
		if c < 0 || int(c) >= len(t.Comms) {
			continue
		}
		id, err := strconv.ParseUint(strings.TrimPrefix(t.Comms[c].ID, "nccl:0x"), 16, 64)
		if err != nil {
			continue
		}
		out = append(out, pendColl{coll: int32(i), rank: rank[i], comm: id, hasComm: true, peer: t.Colls.Peer[i], nranks: -1})
	}
	return out
}

// rebase moves a shard's times from its own base to the job's.
func rebase(t *model.Trace, delta, base int64) {
	for i := range t.Events.Start {
		t.Events.Start[i] += delta
	}
	for i := range t.Counters.Time {
		t.Counters.Time[i] += delta
	}
	for i := range t.Ranks {
		t.Ranks[i].ClockBase = base
	}
}

// insertFailed puts every shard's failed files, then the reports left out
// for their export, after the first report's skip records, where Read
// lists them.
func insertFailed(first *Shard, shards []*Shard) {
	var failed []model.Skip
	for _, sh := range shards {
		failed = append(failed, sh.Info.Failed...)
	}
	for _, sh := range shards {
		failed = append(failed, sh.Info.Exported...)
	}
	s := first.Trace.Skipped
	h := min(first.Info.HeadSkips, len(s))
	first.Trace.Skipped = append(append(slices.Clone(s[:h]), failed...), s[h:]...)
}

func noneRead(shards []*Shard) error {
	var errs []error
	for _, sh := range shards {
		for _, f := range sh.Info.Failed {
			errs = append(errs, errors.New(f.Reason))
		}
	}
	if len(errs) == 0 {
		return errors.New("no nsys export in any shard")
	}
	return errors.Join(errs...)
}
