package nsys

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// finish replaces process ids by global ranks, makes times relative to base, drops the events of
// processes that ran no GPU work (launchers, the profiler), and fills the
// rank and source tables and the job sizes the report declares.
func (b *builder) finish(ranks map[int32]int32, base int64, src model.Source) {
	ev := &b.tr.Events
	dev := b.devices()
	for i := range b.colls {
		b.colls[i].rank = ranks[ev.Rank[b.colls[i].ev]]
	}
	streams := b.remapStreams(ranks)
	dropped := b.remapEvents(ranks, streams, base)
	b.memCounters(ranks, dev, base)
	b.tr.Sources = []model.Source{src}
	if dropped > 0 {
		b.skipRows["cpu event of a process without gpu work"] += int64(dropped)
	}
	b.addRanks(ranks, dev, base)
	b.addSkips()
	b.declareWorld()
}

// remapEvents rewrites ranks and streams in place, dropping the events of
// processes without a rank, and returns how many it dropped.
func (b *builder) remapEvents(ranks map[int32]int32, streams []int32, base int64) int {
	ev := &b.tr.Events
	n := 0
	last, lastRank, lastOK := int32(-1), int32(0), false
	for i := 0; i < ev.Len(); i++ {
		if pid := ev.Rank[i]; pid != last || i == 0 {
			last = pid
			lastRank, lastOK = ranks[pid]
		}
		if !lastOK {
			continue
		}
		if n == i { // nothing dropped yet: three columns change in place (not linked yet: Merge links)
			ev.Rank[i], ev.Stream[i], ev.Start[i] = lastRank, remapIndex(streams, ev.Stream[i]), ev.Start[i]-base
			n++
			continue
		}
		e := ev.At(i)
		e.Rank, e.Stream, e.Start = lastRank, remapIndex(streams, e.Stream), e.Start-base
		ev.Set(n, e)
		n++
	}
	dropped := ev.Len() - n
	truncate(ev, n)
	return dropped
}

func truncate(ev *model.Events, n int) {
	ev.Rank, ev.Stream, ev.Kind, ev.Name = ev.Rank[:n], ev.Stream[:n], ev.Kind[:n], ev.Name[:n]
	ev.Start, ev.Dur, ev.Corr = ev.Start[:n], ev.Dur[:n], ev.Corr[:n]
	ev.Iter, ev.Micro, ev.Coll = ev.Iter[:n], ev.Micro[:n], ev.Coll[:n]
}

func (b *builder) remapStreams(ranks map[int32]int32) []int32 {
	m := make([]int32, len(b.tr.Streams))
	var kept []model.Stream
	for i, s := range b.tr.Streams {
		r, ok := ranks[s.Rank]
		m[i] = -1
		if ok {
			s.Rank = r
			kept = append(kept, s)
			m[i] = int32(len(kept) - 1)
		}
	}
	b.tr.Streams = kept
	return m
}

func remapIndex(m []int32, i int32) int32 {
	if i < 0 || int(i) >= len(m) {
		return -1
	}
	return m[i]
}

func (b *builder) addRanks(ranks map[int32]int32, dev map[int32]int64, base int64) {
	for pid, r := range ranks {
		d := dev[pid]
		gpu := b.meta.gpus[d]
		if g, ok := b.meta.cudaDev[[2]int64{int64(pid), d}]; ok {
			gpu = b.meta.gpus[g]
		}
		b.tr.AddRank(model.Rank{Rank: r, Host: b.meta.host, PID: int64(pid), LocalGPU: int32(d), GPUName: gpu.name,
			GPUUUID: gpuUUID(gpu.uuid), BusID: gpu.bus, Coord: model.UnknownCoord, Source: 0, ClockBase: base})
	}
}

func gpuUUID(u string) string {
	if u == "" || strings.HasPrefix(u, "GPU-") {
		return u
	}
	return "GPU-" + u
}

// devices returns, per process, the CUDA device that ran most of its GPU events.
func (b *builder) devices() map[int32]int64 {
	count := map[[2]int64]int{}
	ev := &b.tr.Events
	last, n := int32(-1), 0 // a run of events of one stream, counted once in the map
	for i := 0; i <= ev.Len(); i++ {
		s := int32(-1)
		if i < ev.Len() {
			s = ev.Stream[i]
		}
		if s == last {
			n++
			continue
		}
		if last >= 0 && b.tr.Streams[last].GPU {
			count[[2]int64{int64(b.tr.Streams[last].Rank), int64(b.tr.Streams[last].Device)}] += n
		}
		last, n = s, 1
	}
	keys := make([][2]int64, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, c [2]int64) int { return int(a[1] - c[1]) })
	best := map[int32]int64{}
	top := map[int32]int{}
	for _, k := range keys {
		if n := count[k]; n > top[int32(k[0])] {
			top[int32(k[0])], best[int32(k[0])] = n, k[1]
		}
	}
	return best
}

func (b *builder) addSkips() {
	keys := make([]string, 0, len(b.skipRows))
	for k := range b.skipRows {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.tr.Skipped = append(b.tr.Skipped, model.Skip{Source: b.path, Offset: -1, Reason: k, Count: b.skipRows[k]})
	}
}

// version is the Source.Version of a report.
func (m *meta) versionText() string {
	if m.version == "" && m.schema == "" {
		return ""
	}
	return fmt.Sprintf("nsys %s, export schema %s", m.version, m.schema)
}
