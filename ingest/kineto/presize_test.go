package kineto

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestPresize: a file of the last one's density gets its events' room at
// once; one far sparser reserves at most twice the last file's events (and
// 1 Ki more); no hint, or no known text size, reserves nothing.
func TestPresize(t *testing.T) {
	h := sizeHint{perByte: 1.0 / 300, events: 8000, cpu: 40, kernels: 30, runtime: 4000, annExt: 900, cpuExt: 40}
	for _, c := range []struct {
		name     string
		h        sizeHint
		text     int64
		min, max int
	}{
		{"alike", h, 300 * 8000, 8000, 8300},
		{"sparser and longer", h, 300 * 8000 * 10, 2*8000 + 1<<10, 2*8000 + 1<<10 + 64},
		{"no hint", sizeHint{}, 300 * 8000, 0, 0},
		{"no text size", h, 0, 0, 0},
	} {
		f := &fileReader{tr: &model.Trace{}, textSize: c.text}
		f.presize(c.h)
		if got := cap(f.tr.Events.Start); got < c.min || got > c.max+c.max/8 {
			t.Errorf("%s: room for %d events, want %d to %d", c.name, got, c.min, c.max)
		}
		if c.h.cpu > 0 && (cap(f.links.cpu) < c.h.cpu || cap(f.links.runtime) < c.h.runtime) {
			t.Errorf("%s: link tables %d, %d, want the last file's %d, %d", c.name, cap(f.links.cpu), cap(f.links.runtime), c.h.cpu, c.h.runtime)
		}
	}
}

// TestHintOf: the hint is the file's counts and its events per text byte.
func TestHintOf(t *testing.T) {
	f := &fileReader{tr: &model.Trace{}, textSize: 1000}
	for range 4 {
		f.tr.Events.Append(model.NewEvent(0, model.KindCompute, 1, 0, 1))
	}
	f.links.cpu = make([]commRange, 3)
	h := hintOf(f)
	if h.events != 4 || h.cpu != 3 || h.perByte != 0.004 {
		t.Errorf("hint %+v, want 4 events, 3 comm ranges, 0.004 a byte", h)
	}
}
