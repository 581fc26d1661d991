package diagnose

import (
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

const remedyIdle = "keep the GPU fed: look at data loading, CPU-side launch overhead (CUDA graphs, larger kernels) " +
	"and host-device synchronizations (.item(), .cpu()) between steps"

// idleFinding reports GPU idle time that no pipeline explains: with PP = 1
// the bubble is not defined and idle time is the host failing to keep the
// GPU busy. (With a pipeline, idle time is part of the bubble finding.)
func idleFinding(fig *Figures) []result.Finding {
	if fig.Layout.PP > 1 {
		return nil
	}
	idle, ranks := meanRanks(fig, func(r result.RankStats) int64 { return r.IdleNs })
	if share(idle, fig.StepNs) < 0.03 {
		return nil
	}
	f := result.Finding{Kind: vocab.KindGPUIdle, CostNs: idle, Ranks: ranks, Stages: []int{0}, Remedy: remedyIdle,
		Headline: result.Say(vocab.SayIdle, result.Ns("idle", idle), result.Frac("share", share(idle, fig.StepNs)))}
	for _, r := range ranks[:min(3, len(ranks))] {
		if st, ok := rankStats(fig, r); ok {
			f.Evidence = append(f.Evidence, result.Say(vocab.SayIdleRank, result.Ns("idle", st.IdleNs), result.Ns("step", st.StepNs),
				result.Ns("compute", st.ComputeNs)).About(r))
		}
	}
	return []result.Finding{f}
}

func rankStats(fig *Figures, rank int) (result.RankStats, bool) {
	for _, r := range fig.Ranks {
		if r.Rank == rank {
			return r, true
		}
	}
	return result.RankStats{}, false
}
