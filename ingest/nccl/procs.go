package nccl

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// commView is one process's membership in one communicator, as the
// Inspector and profiler-plugin outputs describe it.
type commView struct {
	ID     string // "nccl:0x…"
	Name   string
	Host   string
	PID    int64
	Rank   int32 // rank in the communicator
	NRanks int32
}

// viewsTrace builds ranks and communicators from views. A process's global
// rank is its rank in the largest communicator (the world); processes that
// are not in it are numbered after. Views of processes holding several
// ranks of the largest communicator (one process driving several GPUs)
// cannot be mapped beyond that communicator.
func viewsTrace(views []commView, format string, paths []string) *model.Trace {
	t := &model.Trace{}
	for _, p := range paths {
		t.Sources = append(t.Sources, model.Source{Path: p, Format: format})
	}
	world := largest(views)
	global := map[procKey][]int32{}
	for _, v := range views {
		if v.ID == world {
			k := procKey{v.Host, v.PID}
			global[k] = append(global[k], v.Rank)
		}
	}
	next := int32(0)
	for _, rs := range global {
		next = max(next, slices.Max(rs)+1)
	}
	for _, v := range sortedViews(views) {
		k := procKey{v.Host, v.PID}
		if _, ok := global[k]; !ok {
			global[k] = []int32{next}
			next++
		}
		g := global[k][0]
		if v.ID == world {
			g = v.Rank
		} else if len(global[k]) > 1 {
			continue
		}
		if t.FindRank(g) < 0 {
			t.AddRank(model.Rank{Rank: g, Host: v.Host, PID: v.PID, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
		}
		t.AddComm(model.Communicator{ID: v.ID, Name: v.Name, Desc: v.Name, Members: []int32{g}})
	}
	return t
}

type procKey struct {
	host string
	pid  int64
}

func largest(views []commView) string {
	best, n := "", int32(-1)
	for _, v := range views {
		if v.NRanks > n || v.NRanks == n && v.ID < best {
			best, n = v.ID, v.NRanks
		}
	}
	return best
}

func sortedViews(views []commView) []commView {
	out := slices.Clone(views)
	slices.SortFunc(out, func(a, b commView) int {
		return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.PID, b.PID), cmp.Compare(a.ID, b.ID), cmp.Compare(a.Rank, b.Rank))
	})
	return slices.Compact(out)
}
