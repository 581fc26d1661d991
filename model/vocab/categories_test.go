package vocab

import "testing"

func TestCategoryNames(t *testing.T) {
	if ExposedCategory(AxisDP) != CatDPExposed || !KnownCategory(CatDPExposed) || KnownCategory("x") {
		t.Error("ExposedCategory/KnownCategory disagree with the category names")
	}
	for _, ax := range Axes {
		if c := ExposedCategory(ax); !KnownCategory(c) || CategoryAxis(c) != ax {
			t.Errorf("axis %s: exposed category %q unknown or maps back to %q", ax, c, CategoryAxis(c))
		}
	}
	if CategoryAxis(CatPPWait) != AxisPP || CategoryAxis(CatBubble) != "" || !Overlapped(CatA2A) || Overlapped(CatA2AExposed) {
		t.Error("CategoryAxis/Overlapped misclassify pp_wait, bubble or a2a")
	}
}

func TestAxesComeFromTheModel(t *testing.T) {
	want := []string{"TP", "PP", "DP", "CP", "EP", "A2A"}
	if len(Axes) != len(want) {
		t.Fatalf("Axes = %v, want %v", Axes, want)
	}
	for i := range want {
		if Axes[i] != want[i] {
			t.Fatalf("Axes = %v, want %v", Axes, want)
		}
	}
	if FindingAxes[len(FindingAxes)-1] != AxisOther || AxisWords(AxisA2A) == AxisA2A || AxisWords(AxisTP) != AxisTP {
		t.Errorf("FindingAxes %v or AxisWords wrong", FindingAxes)
	}
}
func TestAxisOverlappedBubbleLike(t *testing.T) {
	cases := []struct {
		cat, axis         string
		overlapped, bubbl bool
	}{
		{CatCompute, "", false, false}, {CatTPExposed, "TP", false, false}, {CatDP, "DP", true, false},
		{CatPPWait, "PP", false, true}, {CatBubble, "", false, true}, {CatIdle, "", false, false}, {CatMemcpy, "", false, false},
	}
	for _, c := range cases {
		if CategoryAxis(c.cat) != c.axis || Overlapped(c.cat) != c.overlapped || BubbleLike(c.cat) != c.bubbl {
			t.Errorf("%s: axis %q overlapped %v bubble-like %v, want %q %v %v", c.cat, CategoryAxis(c.cat),
				Overlapped(c.cat), BubbleLike(c.cat), c.axis, c.overlapped, c.bubbl)
		}
	}
}
