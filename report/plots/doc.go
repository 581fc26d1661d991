// Package plots draws the report's figures from a result.Result with
// gonum/plot: the timeline of one step, per-stage breakdown bars, the
// measured bubble against the ideal 1F1B curve, a rank × step heatmap, the
// arrival skew around a slow rank and the α-β fits of every communicator.
//
// It only renders what the analysis measured; it never recomputes it.
// Colours come from report/palette, numbers and category names from model/vocab. A figure
// renders to PNG or SVG; SVG output is deterministic for a given Result.
package plots
