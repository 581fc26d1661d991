package diagnose

// Remedies that depend on what the job already does: an interleaved job
// is not told to interleave, a DP sync that already overlaps the backward
// is not told to overlap, and a job without a pipeline gets neither
// pipeline advice nor one framework's flag names alone.
const (
	remedyBubbleInterleaved = "raise the number of microbatches m; more model chunks per stage (v) shrink the bubble further, " +
		"at the cost of more pipeline transfers"
	remedyDPOverlapped = "the DP sync already overlaps the backward pass: tune the gradient bucket size (fewer, larger buckets " +
		"pay less latency; the last bucket's sync is what stays exposed) and check the network between the DP replicas"
	remedyDPGeneric = "overlap the gradient all-reduce with the backward pass (DDP bucketing / overlap_grad_reduce)"
	remedyDPSharded = "overlap the gradient reduce-scatter and the parameter all-gather with compute " +
		"(FSDP forward/backward prefetch, ZeRO / distributed-optimizer bucketing)"
	remedyA2A = "overlap the all-to-all with independent compute (pipeline the embedding exchange with the dense part, " +
		"e.g. prefetch the next batch's sparse features), shrink it (lower-precision or fewer, fused exchanges) and check the network"
)

// overlappedDP is the share of DP communication under compute above which
// the job is taken to overlap its gradient sync already.
const overlappedDP = 0.5

// bubbleRemedy: an interleaved schedule is already in use when the
// figures name it or more than one model chunk per stage.
func bubbleRemedy(fig *Figures) string {
	if fig.Schedule == "interleaved" || fig.VirtualStages > 1 {
		return remedyBubbleInterleaved
	}
	return remedyBubble
}

// exposedRemedy is the remedy of the exposed-communication finding of
// axis ax, whose kernels run comm per step of which exposed is exposed.
func exposedRemedy(fig *Figures, ax string, exposed, comm int64) string {
	switch ax {
	case "DP":
		return dpRemedy(fig, exposed, comm)
	case "A2A":
		return remedyA2A
	}
	return remedyOf(ax)
}

// dpRemedy: overlapped already → buckets and network; without a pipeline,
// generic names (DDP, FSDP) rather than one framework's flag; sharded data
// parallelism (mostly reduce-scatter and all-gather) → prefetch.
func dpRemedy(fig *Figures, exposed, comm int64) string {
	switch {
	case comm > 0 && 1-share(exposed, comm) >= overlappedDP:
		return remedyDPOverlapped
	case fig.Layout.PP > 1:
		return remedyDP
	case shardedDP(fig):
		return remedyDPSharded
	}
	return remedyDPGeneric
}

// shardedDP reports whether most DP collectives are reduce-scatters and
// all-gathers (FSDP, ZeRO), by the communicators' per-op fits.
func shardedDP(fig *Figures) bool {
	var sharded, all int
	for _, c := range fig.Comms {
		if c.Axis != "DP" {
			continue
		}
		for _, l := range c.Links {
			all += l.Count
			if l.Op == "reduce_scatter" || l.Op == "all_gather" {
				sharded += l.Count
			}
		}
	}
	return all > 0 && 2*sharded > all
}
