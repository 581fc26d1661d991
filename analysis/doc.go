// Package analysis runs the whole analysis of a trace and returns its
// Result: classify (layout: axes and coordinates) → align (clock offsets
// from collective ends) → segment (step windows) → measure (per rank and
// step: compute, communication, exposed, bubble; per collective: wait and
// transfer) → pipeline (schedule, microbatches, fill/drain) → diagnose
// (stages, slow ranks, communicators, findings).
//
// Each step is a named function in the Steps table, which `tpptrace analyze
// --help`, docs/analysis.md and the tests read. HTABreakdown reproduces
// Holistic Trace Analysis's temporal breakdown for parity checks.
//
// The steps keep their outputs in the analysis's own state (run); none
// writes the Result. build assembles the Result once, after the last step.
package analysis
