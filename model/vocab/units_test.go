package vocab

import "testing"

func TestFormats(t *testing.T) {
	cases := []struct{ got, want string }{
		{Duration(812), "812 ns"},
		{Duration(4_200), "4.20 µs"},
		{Duration(18_340_000), "18.3 ms"},
		{Duration(1_250_000_000), "1.25 s"},
		{Duration(-150_000_000), "-150 ms"},
		{Millis(18_346_000), "18.35"},
		{Bytes(512), "512 B"},
		{Bytes(4096), "4.00 KiB"},
		{Bytes(3 << 29), "1.50 GiB"},
		{Rate(187e9), "187 GB/s"},
		{Rate(12.5e6), "12.5 MB/s"},
		{Percent(0.15789), "15.8 %"},
		{Count(1234567), "1,234,567"},
		{Count(-1000), "-1,000"},
		{Count(999), "999"},
		{DurationBrief(18_340_000), "18.3 ms"},
		{DurationBrief(420_400), "420 µs"},
		{DurationBrief(-1_250_000_000), "-1.25 s"},
		{DurationBrief(812), "812 ns"},
		{PercentWhole(0.187), "19 %"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
}
