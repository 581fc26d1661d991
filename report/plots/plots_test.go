package plots

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

var update = flag.Bool("update", false, "rewrite the golden SVGs under testdata/")

var wantFigures = []string{"timeline", "stages", "bubble", "heatmap", "skew", "comms"}

func TestEveryFigureRendersAtItsSize(t *testing.T) {
	figs := All(fixture.Result(fixture.Small()))
	if len(figs) != len(wantFigures) {
		t.Fatalf("got %d figures, want %v", len(figs), wantFigures)
	}
	for i, f := range figs {
		if f.Name != wantFigures[i] {
			t.Errorf("figure %d is %s, want %s", i, f.Name, wantFigures[i])
		}
		var buf bytes.Buffer
		if err := f.Render(&buf, "png"); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%s: bad png: %v", f.Name, err)
		}
		w, h := int(f.Width.Points()/72*DPI+0.5), int(f.Height.Points()/72*DPI+0.5)
		if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
			t.Errorf("%s: png is %v, want %d×%d", f.Name, b.Size(), w, h)
		}
		if distinctColours(img) < 5 {
			t.Errorf("%s: png is nearly blank", f.Name)
		}
	}
}

func distinctColours(img interface {
	Bounds() image.Rectangle
	At(x, y int) color.Color
}) int {
	seen := map[color.Color]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			seen[img.At(x, y)] = true
		}
	}
	return len(seen)
}

func TestSVGIsDeterministicAndMatchesGolden(t *testing.T) {
	r := fixture.Result(fixture.Small())
	for _, f := range All(r) {
		a, b := svg(t, f), svg(t, All(fixture.Result(fixture.Small()))[indexOf(f.Name)])
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: two renders of the same result differ", f.Name)
		}
		golden := filepath.Join("testdata", f.Name+".svg")
		if *update {
			if err := os.WriteFile(golden, a, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./report/plots -update)", err)
		}
		if !bytes.Equal(a, want) {
			t.Errorf("%s: SVG differs from %s (run with -update if the change is intended)", f.Name, golden)
		}
	}
}

func indexOf(name string) int {
	for i, n := range wantFigures {
		if n == name {
			return i
		}
	}
	return -1
}

func svg(t *testing.T, f Figure) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f.Render(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "<?xml") || !strings.Contains(buf.String(), "</svg>") {
		t.Fatalf("%s: not an SVG document", f.Name)
	}
	return buf.Bytes()
}

// TestStageBarsSplitTheBubble: the bubble layers of a stage's bar (PP
// transfer, PP wait, the rest) add up to its bubble, and the PP wait is a
// layer of its own.
func TestStageBarsSplitTheBubble(t *testing.T) {
	r := fixture.Result(fixture.Small())
	for _, s := range r.Stages {
		var sum, wait int64
		for _, st := range stageStacks {
			switch st.cat {
			case vocab.CatPPExposed, vocab.CatPPWait, vocab.CatBubble:
				sum += st.value(s)
			}
			if st.cat == vocab.CatPPWait {
				wait = st.value(s)
			}
		}
		if sum != s.BubbleNs || wait != s.BubblePPWaitNs || wait == 0 {
			t.Errorf("stage %d: bubble layers %d ns (PP wait %d), want the bubble %d (PP wait %d)",
				s.Stage, sum, wait, s.BubbleNs, s.BubblePPWaitNs)
		}
	}
}

// TestCommFitsDrawInterHostLinksDashed: a communicator whose transfers
// cross hosts gets a second, dashed fit line for them.
func TestCommFitsDrawInterHostLinksDashed(t *testing.T) {
	pts := []result.SizeTime{{Bytes: 4 << 20, TimeNs: 30_000}, {Bytes: 8 << 20, TimeNs: 50_000}, {Bytes: 8 << 20, TimeNs: 200_000}}
	c := result.CommStats{ID: "pp0", Axis: "PP", AlphaNs: 10_000, BetaNsPerByte: 0.005, Points: pts}
	render := func(links []result.LinkFit) string {
		c.Links = links
		f, ok := CommFits(&result.Result{Comms: []result.CommStats{c}})
		if !ok {
			t.Fatal("no comms figure")
		}
		var b bytes.Buffer
		if err := f.Render(&b, "svg"); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	without := strings.Count(render(nil), "stroke-dasharray")
	with := strings.Count(render([]result.LinkFit{{Link: "inter-host", Op: "send_recv", Count: 12, AlphaNs: 20_000, BetaNsPerByte: 0.02}}), "stroke-dasharray")
	if with <= without {
		t.Fatalf("an inter-host fit must add a dashed line: %d dashed paths with it, %d without", with, without)
	}
}
