package vocab

import "github.com/tpptrace/tpptrace/model"

// Axis names, as the model's enum spells them: the keys of every per-axis
// map of the Result.
var (
	AxisTP  = model.AxisTP.String()
	AxisPP  = model.AxisPP.String()
	AxisDP  = model.AxisDP.String()
	AxisCP  = model.AxisCP.String()
	AxisEP  = model.AxisEP.String()
	AxisA2A = model.AxisA2A.String()
)

// AxisOther is the key of communication on no named axis (the world
// group, unknown communicators), which the findings count apart.
const AxisOther = "other"

// LayoutAxes are the parallel axes of a layout, which have a size and a
// coordinate: TP, PP, DP, CP, EP.
var LayoutAxes = []string{AxisTP, AxisPP, AxisDP, AxisCP, AxisEP}

// Axes are the keys used in per-axis maps: the layout axes and "A2A",
// all-to-all traffic that is not expert parallelism (a recommender's
// embedding exchange): not a layout axis, it has no size or coordinate.
var Axes = append(append([]string(nil), LayoutAxes...), AxisA2A)

// FindingAxes are the axes the exposed-communication findings go through,
// in their order: Axes, then AxisOther.
var FindingAxes = append(append([]string(nil), Axes...), AxisOther)

// AxisWords names an axis in a sentence: "A2A" is not a parallel axis.
func AxisWords(ax string) string {
	if ax == AxisA2A {
		return "all-to-all (A2A, not expert-parallel)"
	}
	return ax
}
