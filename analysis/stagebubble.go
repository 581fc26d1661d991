package analysis

// stageBubbleParts fills each stage's BubblePPWaitNs and BubblePPTransferNs:
// the mean over the stage's ranks of the bubble's PP wait and PP transfer,
// so that the stage views split the bubble like the findings do.
func (r *run) stageBubbleParts() {
	n := make([]int64, len(r.sched.stages))
	for _, rs := range r.meas.ranks {
		if rs.PP < 0 || rs.PP >= len(r.sched.stages) {
			continue
		}
		st := &r.sched.stages[rs.PP]
		st.BubblePPWaitNs += rs.BubblePPWaitNs
		st.BubblePPTransferNs += rs.BubblePPTransferNs
		n[rs.PP]++
	}
	for s := range r.sched.stages {
		if n[s] > 0 {
			r.sched.stages[s].BubblePPWaitNs /= n[s]
			r.sched.stages[s].BubblePPTransferNs /= n[s]
		}
	}
}
