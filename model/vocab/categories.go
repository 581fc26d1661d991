package vocab

import "strings"

// Timeline categories, as in result.Segment.Category: compute, the
// overlapped communication of each axis ("tp": it runs under compute), its
// exposed part ("tp_exposed"), copies, the PP wait, the bubble and idle.
const (
	CatCompute    = "compute"
	CatTP         = "tp"
	CatPP         = "pp"
	CatDP         = "dp"
	CatCP         = "cp"
	CatEP         = "ep"
	CatTPExposed  = "tp_exposed"
	CatPPExposed  = "pp_exposed"
	CatDPExposed  = "dp_exposed"
	CatCPExposed  = "cp_exposed"
	CatEPExposed  = "ep_exposed"
	CatA2A        = "a2a" // all-to-all that is not expert parallelism (embedding exchange)
	CatA2AExposed = "a2a_exposed"
	CatMemcpy     = "memcpy"
	CatPPWait     = "pp_wait" // a PP send/recv waiting for its neighbour: part of the bubble
	CatBubble     = "bubble"
	CatIdle       = "idle"
)

// Categories lists every category in legend order.
var Categories = []string{CatCompute, CatTPExposed, CatTP, CatPPExposed, CatPP, CatDPExposed, CatDP,
	CatCPExposed, CatCP, CatEPExposed, CatEP, CatA2AExposed, CatA2A, CatMemcpy, CatPPWait, CatBubble, CatIdle}

// overlappedCats are the categories of communication under compute.
var overlappedCats = []string{CatTP, CatPP, CatDP, CatCP, CatEP, CatA2A}

// CategoryLabel returns the human name of a category: "TP exposed", "TP overlapped".
func CategoryLabel(category string) string {
	switch category {
	case CatCompute, CatMemcpy, CatBubble, CatIdle:
		return category
	case CatPPWait:
		return "bubble: PP wait"
	}
	if axis, ok := strings.CutSuffix(category, "_exposed"); ok {
		return strings.ToUpper(axis) + " exposed"
	}
	return strings.ToUpper(category) + " overlapped"
}

// ExposedCategory returns the exposed category of an axis ("TP" → "tp_exposed").
func ExposedCategory(axis string) string { return strings.ToLower(axis) + "_exposed" }

// KnownCategory reports whether category is one of Categories.
func KnownCategory(category string) bool { return contains(Categories, category) }

// CategoryAxis returns the communication axis of a category ("tp_exposed",
// "tp" → "TP"; "pp_wait" → "PP"), or "" for compute, copies, bubble and idle.
func CategoryAxis(category string) string {
	switch category {
	case CatCompute, CatMemcpy, CatBubble, CatIdle, "":
		return ""
	case CatPPWait:
		return AxisPP
	}
	return strings.ToUpper(strings.TrimSuffix(category, "_exposed"))
}

// Overlapped reports whether category is communication running under
// compute ("tp", "pp", ...), which views draw as both.
func Overlapped(category string) bool { return contains(overlappedCats, category) }

// BubbleLike reports whether category is time the pipeline loses: the
// bubble itself or a PP send/recv waiting for its neighbour.
func BubbleLike(category string) bool { return category == CatBubble || category == CatPPWait }

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
