package samples

// stepFigures computes rank r's figures for step k from the ground-truth
// timeline, per docs/semantics.md: lengths of unions of GPU intervals clipped
// to the step window.
func (s *sim) stepFigures(r int, k int32) stepFigures {
	st, prog := &s.ranks[r], s.progs[r]
	lo, hi := st.stepStart[k], st.stepEnd[k]
	var byClass [classSync][]span
	var phases [2][]span // compute of forward, backward passes
	firstBwd, lastFwd := hi, lo
	for i := range prog {
		o := &prog[i]
		if o.step != k || o.class == classSync {
			continue
		}
		sp := span{st.start[i], st.end[i]}
		byClass[o.class] = append(byClass[o.class], sp)
		if o.class == classCompute && o.phase <= phaseBwd {
			phases[o.phase] = append(phases[o.phase], sp)
		}
		if o.class == classCompute && o.phase == phaseBwd {
			firstBwd = min(firstBwd, sp.lo)
		}
		if o.class == classCompute && o.phase == phaseFwd {
			lastFwd = max(lastFwd, sp.hi)
		}
	}
	f := figures(byClass, lo, hi, firstBwd, lastFwd)
	f.fwd, f.bwd = unionLen(phases[phaseFwd], lo, hi), unionLen(phases[phaseBwd], lo, hi)
	if s.cfg.PP == 1 { // no pipeline: no fill or drain, the bubble (idle) is all steady
		f.fillDrain = 0
	}
	return f
}

// figures measures one window given the GPU spans of each class.
func figures(by [classSync][]span, lo, hi, firstBwd, lastFwd int64) stepFigures {
	cat := func(cs ...opClass) []span {
		var out []span
		for _, c := range cs {
			out = append(out, by[c]...)
		}
		return out
	}
	f := stepFigures{window: hi - lo}
	f.compute = unionLen(cat(classCompute), lo, hi)
	f.idle = f.window - unionLen(cat(classCompute, classTP, classPP, classDP, classCP, classEP), lo, hi)
	busy := union(clip(cat(classCompute, classTP, classDP, classCP, classEP), lo, hi))
	bubble := gaps(busy, lo, hi)
	for _, x := range bubble {
		f.bubble += x.hi - x.lo
	}
	f.fillDrain = f.bubble
	if lastFwd > firstBwd {
		f.fillDrain = overlap(bubble, lo, firstBwd) + overlap(bubble, lastFwd, hi)
	}
	for i, c := range truthClasses {
		f.comm[i] = unionLen(cat(c), lo, hi)
		f.exposed[i] = unionLen(cat(c, classCompute), lo, hi) - f.compute
	}
	return f
}
