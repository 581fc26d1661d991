package gunzip

// dynamic reads a dynamic block's code lengths and builds its tables,
// refusing what compress/flate refuses (too many codes, a repeat with
// nothing before it or past the last length, an incomplete code).
func (f *inflater) dynamic() error {
	f.refill()
	nlit := int(f.take(5)) + 257
	ndist := int(f.take(5)) + 1
	nclen := int(f.take(4)) + 4
	if nlit > 286 || ndist > 30 {
		return errInvalid
	}
	var cl [19]uint8
	for i := range nclen {
		if i%16 == 0 {
			f.refill()
		}
		cl[codeOrder[i]] = uint8(f.take(3))
	}
	if !f.cl.build(cl[:], 7, clMeaning) {
		return errInvalid
	}
	lens := f.lens[:nlit+ndist]
	if err := f.codeLengths(lens); err != nil {
		return err
	}
	if !f.lit.build(lens[:nlit], litBits, litMeaning) || !f.dist.build(lens[nlit:], distBits, distMeaning) {
		return errInvalid
	}
	return nil
}

// codeLengths decodes the literal/length and distance code lengths into
// lens (16: repeat the last 3–6 times, 17: 3–10 zeros, 18: 11–138 zeros).
func (f *inflater) codeLengths(lens []uint8) error {
	for i := 0; i < len(lens); {
		f.refill()
		e := f.cl.prim[f.bits&(1<<7-1)]
		if e.isBad() {
			return errInvalid
		}
		f.take(e.n())
		v := e.val()
		if v < 16 {
			lens[i] = uint8(v)
			i++
			continue
		}
		rep, val := 0, uint8(0)
		switch v {
		case 16:
			if i == 0 {
				return errInvalid
			}
			rep, val = 3+int(f.take(2)), lens[i-1]
		case 17:
			rep = 3 + int(f.take(3))
		default:
			rep = 11 + int(f.take(7))
		}
		if i+rep > len(lens) {
			return errInvalid
		}
		for j := range rep {
			lens[i+j] = val
		}
		i += rep
	}
	if f.short() {
		return errInvalid
	}
	return nil
}
