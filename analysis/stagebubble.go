package analysis

// stageBubbleParts fills each stage's BubblePPWaitNs and BubblePPTransferNs:
// the mean over the stage's ranks of the bubble's PP wait and PP transfer,
// so that the stage views split the bubble like the findings do.
func (r *run) stageBubbleParts() {
	n := make([]int64, len(r.res.Stages))
	for _, rs := range r.res.Ranks {
		if rs.PP < 0 || rs.PP >= len(r.res.Stages) {
			continue
		}
		st := &r.res.Stages[rs.PP]
		st.BubblePPWaitNs += rs.BubblePPWaitNs
		st.BubblePPTransferNs += rs.BubblePPTransferNs
		n[rs.PP]++
	}
	for s := range r.res.Stages {
		if n[s] > 0 {
			r.res.Stages[s].BubblePPWaitNs /= n[s]
			r.res.Stages[s].BubblePPTransferNs /= n[s]
		}
	}
}
