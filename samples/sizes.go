package samples

import "math/rand/v2"

// tokenQuantum is the size granule of activation messages: one token of a
// 4096-wide bf16 hidden state.
const tokenQuantum = 8 << 10

// drawTokens draws every (step, microbatch)'s token factor 1 + TokenSpread·u,
// u uniform in [−1, 1), the same on every rank.
func (s *sim) drawTokens() {
	c := s.cfg
	rng := rand.New(rand.NewPCG(uint64(c.Seed), 0x70c5))
	s.tokens = make([][]float64, c.Steps)
	for k := range s.tokens {
		s.tokens[k] = make([]float64, c.Microbatches)
		for i := range s.tokens[k] {
			s.tokens[k][i] = 1
			if c.TokenSpread > 0 {
				s.tokens[k][i] += c.TokenSpread * (2*rng.Float64() - 1)
			}
		}
	}
}

// msgBytes is a per-microbatch message of base bytes scaled by the
// microbatch's tokens, in whole tokens; messages outside a microbatch keep
// base.
func (s *sim) msgBytes(base int64, step, mb int32) int64 {
	if mb < 0 || base <= 0 || s.cfg.TokenSpread == 0 {
		return base
	}
	n := int64(float64(base)*s.tokens[step][mb]/tokenQuantum + 0.5)
	return max(n, 1) * tokenQuantum
}

// tpBytes is the TP message of block bl for microbatch mb of step.
func (s *sim) tpBytes(bl block, step, mb int32) int64 {
	c := s.cfg
	base := c.ActivationBytes
	switch {
	case bl == blockAttn && c.TPAttnBytes > 0:
		base = c.TPAttnBytes
	case bl == blockMLP && c.TPMLPBytes > 0:
		base = c.TPMLPBytes
	}
	return s.msgBytes(base, step, mb)
}

// bucketBytes is the size of DP gradient bucket k: the stage's gradients
// split in proportion n+k over n buckets (unequal, as Megatron's buckets
// are), so that the DP communicator sees several sizes.
func (c *Config) bucketBytes(k int) int64 {
	n := int64(c.DPBuckets)
	total := c.GradBytesPerLayer * int64(c.LayersPerStage)
	return total * (n + int64(k)) / (n*n + n*(n-1)/2)
}

// cpBytes is the CP all-gather input of one layer for microbatch mb: the
// rank's K and V chunk.
func (s *sim) cpBytes(step, mb int32) int64 {
	base := s.cfg.CPBytes
	if base == 0 {
		base = s.cfg.ActivationBytes / 2
	}
	return s.msgBytes(base, step, mb)
}

// epBytes is the EP all-to-all input of one MoE layer for microbatch mb:
// the rank's routed tokens.
func (s *sim) epBytes(step, mb int32) int64 {
	base := s.cfg.EPBytes
	if base == 0 {
		base = s.cfg.ActivationBytes
	}
	return s.msgBytes(base, step, mb)
}
