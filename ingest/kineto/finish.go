package kineto

import (
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// finish settles the per-file trace once the whole file is read: rank,
// iterations, collectives, stream names, the rank record and the world
// size distributedInfo declares.
func (f *fileReader) finish(rank int32, size int64) *model.Trace {
	f.iterations()
	f.collectives(rank)
	f.pgComms(rank)
	f.nameStreams(rank)
	ev := &f.tr.Events
	for i := range ev.Rank {
		ev.Rank[i] = rank
	}
	for i := range f.tr.Counters.Rank {
		f.tr.Counters.Rank[i] = rank
	}
	f.tr.Counters.Sort()
	f.tr.Events.Sort() // here, in the file's worker: the merge only orders the sorted parts
	f.tr.Sources = []model.Source{{Path: f.path, Format: "kineto", Size: size}}
	f.tr.AddRank(f.rankRecord(rank))
	if f.info.worldSize > 0 && f.info.worldSize <= model.MaxWorld {
		f.tr.DeclareWorld(int32(f.info.worldSize), model.WorldByKineto, 1)
	}
	if f.info.inexact {
		f.skip("times with sub-nanosecond digits were rounded (start up, end down)", -1)
	}
	return f.tr
}

func (f *fileReader) rankRecord(rank int32) model.Rank {
	dev, ok := mostCommon(f.devices.counts())
	r := model.Rank{Rank: rank, Host: f.info.host, LocalGPU: -1, Coord: model.UnknownCoord, ClockBase: f.info.baseNs}
	if ok {
		r.LocalGPU, r.GPUName = int32(dev), f.info.gpus[dev]
	}
	r.PID, _ = mostCommon(f.pids.counts())
	return r
}

// mostCommon returns the key with the highest count (the smallest on ties).
func mostCommon(m map[int64]int) (int64, bool) {
	best, n := int64(0), 0
	for k, c := range m {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	return best, n > 0
}

// nameStreams sets each stream's rank and its name from thread_name metadata.
func (f *fileReader) nameStreams(rank int32) {
	pid, _ := mostCommon(f.pids.counts())
	for k, i := range f.streams {
		s := &f.tr.Streams[i]
		s.Rank = rank
		key := [2]int64{pid, k.id}
		if k.gpu {
			key[0] = k.dev
		}
		if n := strings.TrimSpace(f.names[key]); n != "" {
			s.Name = n
		}
	}
}

// collectives gives every communication kernel a collective row.
func (f *fileReader) collectives(rank int32) {
	f.links.sortCPU()
	rt := f.runtimeByCorr()
	ev := &f.tr.Events
	for _, k := range f.links.kernels {
		info := k.info
		if i, ok := f.links.cpuExt[k.ext]; ok && k.ext >= 0 && k.ext != k.corr {
			info.fill(&f.links.cpu[i].info)
		}
		if r := findCorr(rt, ev.Corr, k.corr); r >= 0 {
			f.links.enclosing(ev.Stream[r], ev.Start[r], &info)
		}
		ev.Coll[k.row] = f.tr.Colls.Append(f.collective(rank, f.tr.Name(int(k.row)), info, k.own))
	}
}

func (f *fileReader) collective(rank int32, name string, info commInfo, own bool) model.Collective {
	c := model.NewCollective(chooseOp(f.memo.kernelOp(name), info.op, own))
	if sz := f.memo.dtypeSize(info.dtype); sz > 0 && info.nelems >= 0 {
		c.Bytes = info.nelems * sz
	}
	if info.dtype != "" {
		c.DType = f.tr.Names.Intern(info.dtype)
	}
	c.Seq = info.seq
	if c.Op.PointToPoint() && info.peer >= 0 && info.peer < 1<<30 {
		c.Peer = int32(info.peer)
	}
	if info.pgName != "" {
		ranks := info.ranks
		if ranks == nil {
			ranks = f.pgRanks(info.pgName)
		}
		c.Comm = f.addComm(rank, info.pgName, info.pgDesc, ranks)
		if info.groupSize < 0 && ranks != nil {
			info.groupSize = int64(len(ranks))
		}
	}
	if info.groupSize >= 0 && info.groupSize < 1<<30 {
		c.GroupSize = int32(info.groupSize)
	}
	return c
}

// chooseOp decides a kernel's op: its own Collective name first, then a
// kernel name that names one collective, then the CPU side (annotation or
// record_param_comms), and SendRecv / Other when nothing says more.
func chooseOp(fromName, fromInfo model.Op, own bool) model.Op {
	switch {
	case own:
		return fromInfo
	case fromName != model.OpSendRecv && fromName != model.OpOther:
		return fromName
	case fromInfo != model.OpNone:
		return fromInfo
	}
	return fromName
}
