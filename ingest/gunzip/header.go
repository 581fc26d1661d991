package gunzip

import "encoding/binary"

// The gzip header's flags (RFC 1952, 2.3.1).
const (
	flagExtra   = 1 << 2
	flagName    = 1 << 3
	flagComment = 1 << 4
	flagHdrCRC  = 1 << 1
	flagsKnown  = 1<<5 - 1
)

// maxHeaderString is the longest name or comment gzip.Reader reads
// (its buffer, the terminating zero included).
const maxHeaderString = 512

// headerEnd returns the index after the gzip member header at in[p:], and
// false for one that is not read here: a bad magic or method, reserved
// flags, a header CRC, a truncated field, a name or comment longer than
// gzip.Reader reads.
func headerEnd(in []byte, p int) (int, bool) {
	if p+10 > len(in) || in[p] != 0x1f || in[p+1] != 0x8b || in[p+2] != 8 {
		return 0, false
	}
	flg := in[p+3]
	if flg&^flagsKnown != 0 || flg&flagHdrCRC != 0 {
		return 0, false
	}
	p += 10
	if flg&flagExtra != 0 {
		if p+2 > len(in) {
			return 0, false
		}
		p += 2 + int(binary.LittleEndian.Uint16(in[p:]))
	}
	ok := p <= len(in)
	if ok && flg&flagName != 0 {
		p, ok = stringEnd(in, p)
	}
	if ok && flg&flagComment != 0 {
		p, ok = stringEnd(in, p)
	}
	return p, ok
}

// stringEnd returns the index after the zero-terminated string at in[p:].
func stringEnd(in []byte, p int) (int, bool) {
	for i := 0; i < maxHeaderString && p+i < len(in); i++ {
		if in[p+i] == 0 {
			return p + i + 1, true
		}
	}
	return 0, false
}
