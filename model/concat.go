package model

import (
	"reflect"
	"sync"
	"sync/atomic"
)

// ConcatEvents returns the rows of parts, in order, built column by column
// into columns carved from one block (BlockEvents: huge pages where the
// kernel gives them, so the copy is not a page fault every 4 KiB).
// With release set, each column of a part is set to nil once it is copied,
// so that the parts and the result together hold the rows once plus one
// column (the parts are empty afterwards). Every exported column of Events
// is a slice; reflection keeps this true of columns added later. The
// kernel-launch link (unexported) is not carried: its row numbers change
// with the concatenation, so the result is unlinked (Merge links it).
// A large concatenation copies concatWorkers columns at a time (then the
// parts and the result hold the rows once plus that many columns): the
// copy is mostly first touches of the new columns' pages, a serial 35 ms
// of a cold read of 524 k events on one core otherwise. Parts whose
// columns differ in length (not events a reader builds) give the column
// the rows its parts hold, as appending them would.
func ConcatEvents(parts []*Events, release bool) Events {
	total := 0
	for _, p := range parts {
		total += p.Len()
	}
	if total == 0 {
		for _, p := range parts {
			if release {
				*p = Events{}
			}
		}
		return Events{}
	}
	out := BlockEvents(total)
	ov := reflect.ValueOf(&out).Elem()
	concatColumns(columnFields(ov.Type()), total, func(f int) {
		ov.Field(f).Set(concatColumn(ov.Field(f), parts, f, release))
	})
	for _, p := range parts {
		if release {
			p.launch = nil
		}
	}
	return out
}

// concatColumn copies column f of every part into col (total rows, from
// the block) and returns it; a ragged column, whose parts hold other than
// total rows, is appended into a column of its own instead.
func concatColumn(col reflect.Value, parts []*Events, f int, release bool) reflect.Value {
	rows := 0
	for _, p := range parts {
		rows += reflect.ValueOf(p).Elem().Field(f).Len()
	}
	if rows != col.Len() {
		col = reflect.MakeSlice(col.Type(), 0, col.Len())
	}
	off := 0
	for _, p := range parts {
		pc := reflect.ValueOf(p).Elem().Field(f)
		if rows == col.Len() {
			off += reflect.Copy(col.Slice(off, rows), pc)
		} else {
			col = reflect.AppendSlice(col, pc)
		}
		if release {
			pc.SetZero()
		}
	}
	return col
}

// concatWorkers is how many columns a large concatenation copies at a
// time, and concatParallel the rows from which it does.
const (
	concatWorkers  = 2
	concatParallel = 1 << 16
)

// concatColumns runs copy for every column of cols, on concatWorkers
// goroutines once rows reaches concatParallel (each call writes only its
// own column of the result and of the parts).
func concatColumns(cols []int, rows int, copy func(f int)) {
	if rows < concatParallel {
		for _, f := range cols {
			copy(f)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range concatWorkers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(cols); i = int(next.Add(1) - 1) {
				copy(cols[i])
			}
		})
	}
	wg.Wait()
}
