package result

import "testing"

func TestLayoutString(t *testing.T) {
	for _, c := range []struct {
		l    Layout
		want string
	}{
		{Layout{TP: 2, PP: 4, DP: 2}, "TP2 PP4 DP2"},
		{Layout{TP: 2, PP: 2, DP: 1, CP: 2}, "TP2 PP2 DP1 CP2 EP1"},
		{Layout{TP: 2, PP: 2, DP: 1, EP: 4}, "TP2 PP2 DP1 CP1 EP4"},
	} {
		if got := c.l.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
}

func TestRankRanges(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{{nil, ""}, {[]int{5}, "5"}, {[]int{0, 1, 2, 3, 6}, "0-3,6"}, {[]int{1, 3, 4, 7}, "1,3-4,7"}} {
		if got := RankRanges(c.in); got != c.want {
			t.Errorf("RankRanges(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
