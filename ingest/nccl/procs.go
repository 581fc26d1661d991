package nccl

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// CommView is one process's membership in one communicator, as the
// Inspector and profiler-plugin outputs describe it.
type CommView struct {
	ID     string // HashKey of the commHash
	Name   string
	Host   string
	PID    int64
	Rank   int32 // rank in the communicator
	NRanks int32
}

// ViewsTrace builds ranks and communicators from views. A process's global
// rank is its rank in the largest communicator when that one spans every
// process seen (the world); processes that are not in it are numbered
// after. Without such a world (the Inspector records no operation under
// 8 KiB, so the world group often has no record), processes are numbered
// in host, then pid order, as torchrun starts them. Views of processes
// holding several ranks of the largest communicator (one process driving
// several GPUs) cannot be mapped beyond that communicator.
func ViewsTrace(views []CommView, format string, paths []string) *model.Trace {
	t := &model.Trace{}
	for _, p := range paths {
		t.Sources = append(t.Sources, model.Source{Path: p, Format: format})
	}
	world := largest(views)
	if !spansAll(views, world) {
		world = ""
	}
	global := map[procKey][]int32{}
	for _, v := range views {
		if v.ID == world {
			k := procKey{v.Host, v.PID}
			if !slices.Contains(global[k], v.Rank) { // a view repeats per record
				global[k] = append(global[k], v.Rank)
			}
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
		t.AddComm(NamedComm(v.ID, v.Name, v.Name, []int32{g}))
	}
	return t
}

// spansAll reports whether communicator id has as many ranks as there are
// processes in views.
func spansAll(views []CommView, id string) bool {
	procs := map[procKey]bool{}
	n := int32(0)
	for _, v := range views {
		procs[procKey{v.Host, v.PID}] = true
		if v.ID == id {
			n = max(n, v.NRanks)
		}
	}
	return int(n) >= len(procs)
}

type procKey struct {
	host string
	pid  int64
}

func largest(views []CommView) string {
	best, n := "", int32(-1)
	for _, v := range views {
		if v.NRanks > n || v.NRanks == n && v.ID < best {
			best, n = v.ID, v.NRanks
		}
	}
	return best
}

func sortedViews(views []CommView) []CommView {
	out := slices.Clone(views)
	slices.SortFunc(out, func(a, b CommView) int {
		return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.PID, b.PID), cmp.Compare(a.ID, b.ID), cmp.Compare(a.Rank, b.Rank))
	})
	return slices.Compact(out)
}
