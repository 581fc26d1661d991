// Package whatif replays a training step's dependency graph to answer
// counterfactuals: how long would the step take if a worker, a stage or an
// op type ran at its ideal speed, if launch delays vanished, if the stages
// were balanced? It follows the what-if analysis of Lin et al. (OSDI '25,
// "Understanding Stragglers in Large Model Training Using What-if
// Analysis"), described in docs and ../shared/reference/whatif.md.
//
// The op graph is columnar and pointer-free: ops are parallel slices,
// in-worker edges ("a ends before b starts") and synchronisation groups
// (no member ends before every member has started) are index arrays in
// compressed-row form. Replay visits the group-contracted graph in
// topological order: an op starts at the latest end of its predecessors
// plus its launch delay; a group's members end at the group's latest start
// plus their own transfer time.
//
// Graphs come from an op table (model.OpTable, FromOpTable) or from a
// normalized trace's passes and matched collectives (FromTrace).
package whatif
