package pipeline

import (
	"math"
	"testing"
)

// seq builds ops from a phase string like "FFBFB", numbering microbatches
// per phase in order; chunks repeat micro ids v times.
func seq(phases string, withMicro bool, m int) []Op {
	var ops []Op
	nf, nb := 0, 0
	for i, c := range phases {
		op := Op{Phase: PhaseFwd, Micro: -1, Chunk: -1, Start: int64(i * 10), End: int64(i*10 + 5)}
		n := &nf
		if c == 'B' {
			op.Phase, n = PhaseBwd, &nb
		}
		if withMicro {
			op.Micro = int32(*n % m)
		}
		*n++
		ops = append(ops, op)
	}
	return ops
}

// oneFOneB is the order of a (possibly interleaved) 1F1B stage: warm
// forwards, then alternating, then the remaining backwards.
func oneFOneB(total, warm int) string {
	warm = min(warm, total)
	s := ""
	for range warm {
		s += "F"
	}
	for range total - warm {
		s += "FB"
	}
	for range warm {
		s += "B"
	}
	return s
}

func gpipe(m int) string {
	s := ""
	for range m {
		s += "F"
	}
	for range m {
		s += "B"
	}
	return s
}

func TestDetectSchedules(t *testing.T) {
	const p, m = 4, 8
	for s := 0; s < p; s++ {
		g := Geometry{Stage: s, P: p}
		cases := []struct {
			name  string
			ops   []Op
			ring  int
			want  Schedule
			label string
		}{
			{"gpipe", seq(gpipe(m), true, m), 0, Schedule{GPipe, m, 1}, "micro ids"},
			{"gpipe", seq(gpipe(m), false, m), 0, Schedule{GPipe, m, 1}, "no ids"},
			{"1f1b", seq(oneFOneB(m, p-s-1), true, m), 0, Schedule{OneFOneB, m, 1}, "micro ids"},
			{"1f1b", seq(oneFOneB(m, p-s-1), false, m), 0, Schedule{OneFOneB, m, 1}, "no ids"},
			{"interleaved", seq(oneFOneB(2*m, (p-s-1)*2+p), true, m), 0, Schedule{Interleaved, m, 2}, "micro ids"},
		}
		if s == 0 {
			cases = append(cases, struct {
				name  string
				ops   []Op
				ring  int
				want  Schedule
				label string
			}{"interleaved", seq(oneFOneB(2*m, (p-1)*2+p), false, m), m, Schedule{Interleaved, m, 2}, "ring recvs"})
		}
		for _, c := range cases {
			if got := Detect(c.ops, c.ring, g); got != c.want {
				t.Errorf("stage %d %s (%s): Detect = %+v, want %+v", s, c.name, c.label, got, c.want)
			}
		}
	}
}

func TestVoteAndIdeal(t *testing.T) {
	got := Vote([]Schedule{{OneFOneB, 8, 1}, {Unknown, 0, 0}, {OneFOneB, 8, 1}, {GPipe, 8, 1}, {OneFOneB, 4, 1}})
	if got != (Schedule{OneFOneB, 8, 1}) {
		t.Fatalf("Vote = %+v", got)
	}
	for _, c := range []struct {
		p, m, v int
		want    float64
	}{{4, 8, 1, 3.0 / 11}, {4, 8, 2, 3.0 / 19}, {1, 8, 1, 0}, {8, 32, 1, 7.0 / 39}} {
		if got := IdealBubble(c.p, c.m, c.v); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("IdealBubble(%d,%d,%d) = %g, want %g", c.p, c.m, c.v, got, c.want)
		}
	}
}
