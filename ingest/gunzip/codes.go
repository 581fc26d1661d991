package gunzip

import "sync"

// The primary index bits of the literal/length and distance tables.
const (
	litBits  = 10
	distBits = 10
)

// The match lengths and distances of deflate's symbols (RFC 1951, 3.2.5).
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

// litMeaning is what literal/length symbol s decodes to; 286 and 287 have
// fixed codes but no meaning.
func litMeaning(s int) symbol {
	switch {
	case s < 256:
		return symbol{kind: kLiteral, val: s}
	case s == 256:
		return symbol{kind: kEnd}
	case s < 286:
		return symbol{kind: kLength, extra: uint(lengthExtra[s-257]), val: int(lengthBase[s-257])}
	}
	return symbol{kind: kBad}
}

// distMeaning is what distance symbol s decodes to; 30 and 31 have fixed
// codes but no meaning.
func distMeaning(s int) symbol {
	if s < 30 {
		return symbol{kind: kDist, extra: uint(distExtra[s]), val: int(distBase[s])}
	}
	return symbol{kind: kBad}
}

// clMeaning is what code length symbol s decodes to: its value.
func clMeaning(s int) symbol { return symbol{kind: kLiteral, val: s} }

// fixed is the literal/length and distance tables of a fixed Huffman
// block (RFC 1951, 3.2.6), built once.
var fixed = sync.OnceValue(func() *[2]table {
	var lengths [288]uint8
	for s := range lengths {
		switch {
		case s < 144:
			lengths[s] = 8
		case s < 256:
			lengths[s] = 9
		case s < 280:
			lengths[s] = 7
		default:
			lengths[s] = 8
		}
	}
	var dist [32]uint8
	for s := range dist {
		dist[s] = 5
	}
	var t [2]table
	t[0].build(lengths[:], litBits, litMeaning)
	t[1].build(dist[:], distBits, distMeaning)
	return &t
})

// codeOrder is the order of the code length code's lengths in a dynamic
// block's header.
var codeOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
