package samples

import (
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// fitKey is one family of transfers that share α and β: a communicator, the
// op, and for p2p whether the pair shares a host.
type fitKey struct {
	comm int32
	op   model.Op
	net  bool
}

// points collects, per family, (bytes, transfer) of every instance in the
// trace: transfer = the common end − the latest member start, aligned. The
// common end is estimated without bias as the members' mean end less the
// mean end skew (EndSkewNs/2: each member ends a uniform draw in
// [0, EndSkewNs) after it).
func points(j *Job) map[fitKey][][2]float64 {
	tr, ev := j.Trace, &j.Trace.Events
	type acc struct {
		sumEnd, latest int64
		n, bytes       int64
		fk             fitKey
	}
	insts := map[memberKey]*acc{}
	for i := range ev.Len() {
		c := ev.Coll[i]
		if c < 0 || tr.Colls.Comm[c] < 0 {
			continue
		}
		k, _ := instanceKey(tr, i)
		off := j.Truth.Ranks[ev.Rank[i]].ClockOffsetNs
		a := insts[k]
		if a == nil {
			a = &acc{bytes: tr.Colls.Bytes[c], fk: fitKey{comm: k.comm, op: tr.Colls.Op[c]}}
			if a.fk.op == model.OpRecv {
				a.fk.op = model.OpSend
			}
			if k.src >= 0 {
				a.fk.net = j.Config.Host(int(k.src)) != j.Config.Host(int(k.dst))
			}
			insts[k] = a
		}
		a.sumEnd, a.n, a.latest = a.sumEnd+ev.Start[i]+ev.Dur[i]-off, a.n+1, max(a.latest, ev.Start[i]-off)
	}
	out := map[fitKey][][2]float64{}
	skew := float64(j.Config.EndSkewNs) / 2
	for _, a := range insts {
		end := float64(a.sumEnd)/float64(a.n) - skew
		out[a.fk] = append(out[a.fk], [2]float64{float64(a.bytes), end - float64(a.latest)})
	}
	return out
}

// leastSquares fits y = α + β·x.
func leastSquares(pts [][2]float64) (alpha, beta float64) {
	var sx, sy, sxx, sxy float64
	n := float64(len(pts))
	for _, p := range pts {
		sx, sy, sxx, sxy = sx+p[0], sy+p[1], sxx+p[0]*p[0], sxy+p[0]*p[1]
	}
	beta = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return (sy - beta*sx) / n, beta
}

// configured returns the α (ns) and β (ns per byte) the generator uses for
// family k.
func configured(c *Config, tr *model.Trace, k fitKey) (alpha, beta float64) {
	m := tr.Comms[k.comm].Members
	n := float64(len(m))
	net := k.net
	if !k.op.PointToPoint() {
		net = c.Host(int(m[0])) != c.Host(int(m[len(m)-1]))
	}
	alpha, bw := float64(c.NVLinkAlphaNs), c.NVLinkBps
	if net {
		alpha, bw = float64(c.NetAlphaNs), c.NetBps
	}
	f := 1.0
	switch k.op {
	case model.OpAllReduce:
		f = 2 * (n - 1) / n
	case model.OpReduceScatter, model.OpAllGather:
		f = (n - 1) / n
	}
	return alpha, f / bw * 1e9
}

// TestAlphaBetaFitRecoversLinks fits α + β·bytes by least squares on the
// generated instances of each communicator (and op, and for p2p each link)
// and expects the configured link values within 10 %: on the default job
// (TP all-reduces of two sizes, PP activations, per-microbatch token spread;
// its 8 DP buckets per group are too few and too big for α: α is 1.6 % of
// their transfer, within the jitter, so only β is checked there), and on a
// job of small unequal DP buckets over the network, where α is checked too.
func TestAlphaBetaFitRecoversLinks(t *testing.T) {
	small := DefaultConfig()
	small.TP, small.PP, small.DP, small.GPUsPerHost, small.LayersPerStage = 1, 2, 4, 2, 4
	small.GradBytesPerLayer, small.DPBuckets, small.Steps = 1<<20, 8, 16
	for name, c := range map[string]Config{"default": scenarioJob(t, "default").Config, "small-buckets": small} {
		j, err := Simulate(c)
		if err != nil {
			t.Fatal(err)
		}
		fams := points(j)
		if len(fams) < 3 {
			t.Fatalf("%s: %d families of transfers, want TP, PP and DP ones", name, len(fams))
		}
		for k, pts := range fams {
			a, b := leastSquares(pts)
			wa, wb := configured(&j.Config, j.Trace, k)
			checkAlpha := name != "default" || j.Trace.Comms[k.comm].Desc != DescDP
			if testing.Verbose() {
				t.Logf("%s: communicator %s %v (network %v, %d instances): α %.0f ns β %.4g ns/B, configured %.0f, %.4g", name, j.Trace.Comms[k.comm].Name, k.op, k.net, len(pts), a, b, wa, wb)
			}
			if math.Abs(b-wb) > 0.1*wb || checkAlpha && math.Abs(a-wa) > 0.1*wa {
				t.Errorf("%s: communicator %s %v (network %v, %d instances): α %.0f ns β %.3g ns/B, configured %.0f, %.3g",
					name, j.Trace.Comms[k.comm].Name, k.op, k.net, len(pts), a, b, wa, wb)
			}
		}
	}
}

// TestMessageSizesVary: TP messages of the attention and MLP blocks differ,
// pipeline activations vary per microbatch, DP buckets are unequal; with
// sequence parallelism TP reduce-scatters and all-gathers a 1/TP shard.
func TestMessageSizesVary(t *testing.T) {
	c := DefaultConfig()
	c.SeqParallel = true
	j, err := Simulate(c)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[fitKey]map[int64]bool{}
	for k, pts := range points(j) {
		sizes[k] = map[int64]bool{}
		for _, p := range pts {
			sizes[k][int64(p[0])] = true
		}
	}
	ops := map[model.Op]int{}
	for k, s := range sizes {
		ops[k.op]++
		if len(s) < 2 {
			t.Errorf("communicator %s %v: one message size %v", j.Trace.Comms[k.comm].Name, k.op, s)
		}
	}
	if ops[model.OpAllGather] == 0 || ops[model.OpReduceScatter] == 0 || ops[model.OpSend] == 0 {
		t.Errorf("ops by family %v: want TP reduce-scatter and all-gather and PP sends", ops)
	}
	if b0, b1 := c.bucketBytes(0), c.bucketBytes(1); b0 >= b1 || b0+b1 > c.GradBytesPerLayer*int64(c.LayersPerStage) {
		t.Errorf("buckets %d, %d: want unequal, at most the stage's gradients", b0, b1)
	}
}
