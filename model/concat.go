package model

import "reflect"

// ConcatEvents returns the rows of parts, in order, built column by column.
// With release set, each column of a part is set to nil once it is copied,
// so that the parts and the result together hold the rows once plus one
// column (the parts are empty afterwards). Every exported column of Events
// is a slice; reflection keeps this true of columns added later. The
// kernel-launch link (unexported) is not carried: its row numbers change
// with the concatenation, so the result is unlinked (Merge links it).
func ConcatEvents(parts []*Events, release bool) Events {
	total := 0
	for _, p := range parts {
		total += p.Len()
	}
	var out Events
	if total == 0 {
		for _, p := range parts {
			if release {
				*p = Events{}
			}
		}
		return out
	}
	ov := reflect.ValueOf(&out).Elem()
	for f := range ov.NumField() {
		if !ov.Type().Field(f).IsExported() {
			continue
		}
		col := reflect.MakeSlice(ov.Field(f).Type(), 0, total)
		for _, p := range parts {
			pc := reflect.ValueOf(p).Elem().Field(f)
			col = reflect.AppendSlice(col, pc)
			if release {
				pc.SetZero()
			}
		}
		ov.Field(f).Set(col)
	}
	for _, p := range parts {
		if release {
			p.launch = nil
		}
	}
	return out
}
