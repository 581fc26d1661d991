package samples

import (
	"math"
	"math/rand/v2"

	"github.com/tpptrace/tpptrace/model"
)

// instKey identifies a collective instance: (group, seq) for collectives,
// (group, src, dst, seq) for point-to-point transfers.
type instKey struct {
	group    int32
	src, dst int32
	grad     bool // p2p: the gradient channel
	seq      int64
}

// instance is one collective: its members' kernels end at the latest member
// start plus the transfer time (the common end), each plus its own draw in
// [0, EndSkewNs).
type instance struct {
	key      instKey
	bytes    int64
	members  int
	arrived  int
	maxStart int64
	transfer int64
	refs     []opRef
	wireSeq  int64 // p2p: the Seq written, per direction in end order (numberP2P)
}

// opRef names op of rank.
type opRef struct{ rank, op int32 }

// sim is the state of one simulation.
type sim struct {
	cfg              *Config
	rng              *rand.Rand
	skewRng          *rand.Rand // end skew draws, a stream of their own
	groups           []group
	tpOf, ppOf, dpOf []int32
	cpOf, epOf       []int32 // nil when CP (EP) is 1
	insts            []instance
	instIdx          map[instKey]int32
	progs            [][]op
	ranks            []rankState
	hostOffsets      []int64
	tokens           [][]float64 // per step and microbatch: token factor of its messages
}

func newSim(cfg *Config) *sim {
	s := &sim{cfg: cfg, rng: rand.New(rand.NewPCG(uint64(cfg.Seed), 0x7a11)), instIdx: map[instKey]int32{}}
	s.skewRng = rand.New(rand.NewPCG(uint64(cfg.Seed), 0x5e3d))
	s.makeGroups()
	s.hostOffsets = s.plantOffsets()
	s.drawTokens()
	return s
}

// plantOffsets returns the configured host offsets, or draws them in
// ±MaxHostOffsetNs.
func (s *sim) plantOffsets() []int64 {
	if len(s.cfg.HostOffsetsNs) > 0 {
		return s.cfg.HostOffsetsNs
	}
	out := make([]int64, s.cfg.hosts())
	for i := range out {
		if m := s.cfg.MaxHostOffsetNs; m > 0 {
			out[i] = s.rng.Int64N(2*m+1) - m
		}
	}
	return out
}

// jitter returns x scaled by 1+σ·N(0,1) (clipped at 3σ), at least 1 ns.
func (s *sim) jitter(rng *rand.Rand, x float64) int64 {
	z := max(-3, min(3, rng.NormFloat64()))
	return max(1, int64(math.Round(x*(1+s.cfg.Jitter*z))))
}

// instance returns the index of the instance with key k, creating it.
func (s *sim) instance(k instKey, bytes int64, o model.Op) int32 {
	if i, ok := s.instIdx[k]; ok {
		return i
	}
	n := len(s.groups[k.group].members)
	hosts := s.groups[k.group].members
	if o.PointToPoint() {
		n, hosts = 2, []int32{k.src, k.dst}
	}
	tr := s.jitter(s.rng, s.transferNs(o, n, bytes, s.sameHost(hosts)))
	s.insts = append(s.insts, instance{key: k, bytes: bytes, members: n, transfer: tr})
	s.instIdx[k] = int32(len(s.insts) - 1)
	return int32(len(s.insts) - 1)
}

func (s *sim) sameHost(ranks []int32) bool {
	for _, r := range ranks {
		if int(r)/s.cfg.GPUsPerHost != int(ranks[0])/s.cfg.GPUsPerHost {
			return false
		}
	}
	return true
}

// transferNs is the α-β time of a ring collective of n members moving bytes:
// all-reduce moves 2(n−1)/n of the buffer, reduce-scatter, all-gather and
// all-to-all (n−1)/n, a send one buffer.
func (s *sim) transferNs(o model.Op, n int, bytes int64, nvlink bool) float64 {
	c := s.cfg
	alpha, bw := float64(c.NetAlphaNs), c.NetBps
	if nvlink {
		alpha, bw = float64(c.NVLinkAlphaNs), c.NVLinkBps
	}
	f := 1.0
	switch o {
	case model.OpAllReduce:
		f = 2 * float64(n-1) / float64(n)
	case model.OpReduceScatter, model.OpAllGather, model.OpAllToAll:
		f = float64(n-1) / float64(n)
	}
	return alpha + f*float64(bytes)/bw*1e9
}

// arrive records that member ref started its kernel at start; when the last
// member arrives every member's end is set: the common end plus that
// member's end skew.
func (s *sim) arrive(i int32, ref opRef, start int64) {
	in := &s.insts[i]
	if in.arrived == 0 || start > in.maxStart {
		in.maxStart = start
	}
	in.arrived++
	in.refs = append(in.refs, ref)
	if in.arrived < in.members {
		return
	}
	for _, r := range in.refs {
		s.ranks[r.rank].end[r.op] = in.end() + s.endSkew()
	}
}

// endSkew draws how long after the common end one member's kernel ends:
// uniform in [0, EndSkewNs) (the ring's last chunk, kernel exit, timestamp
// granularity), 0 when EndSkewNs is 0.
func (s *sim) endSkew() int64 {
	if s.cfg.EndSkewNs <= 0 {
		return 0
	}
	return s.skewRng.Int64N(s.cfg.EndSkewNs)
}
