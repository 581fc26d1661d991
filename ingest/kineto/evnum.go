package kineto

import (
	"encoding/binary"
	"math/bits"
)

// Numbers as Kineto writes them, parsed while they are checked: the
// decoder's fast paths. Each gives ok false for anything else (a sign where
// none is taken, an exponent, too many digits, the end of the input), and
// the general path (number, then the field's own parser) decides.

// plainMicrosAt parses the ts or dur literal at i when it is what
// plainMicros takes (1 to 16 digits under maxMicros, at most 3 decimals,
// no sign) and a
// valid JSON number: its nanoseconds and the index after it. With 25
// bytes from i the digits are read in at most two words and the fraction
// in one, without a loop; any other shape, or a shorter input, takes
// plainMicrosSlow.
func plainMicrosAt(b []byte, i int) (int64, int, bool) {
	if i+25 > len(b) {
		return plainMicrosSlow(b, i)
	}
	x := binary.LittleEndian.Uint64(b[i:])
	n := digitsIn(x)
	var v int64
	var c byte
	j := i
	switch {
	case n == 8: // 9 to 16 digits (16: plainMicros16)
		y := binary.LittleEndian.Uint64(b[i+8 : i+16])
		m := digitsIn(y)
		if m-1 >= 7 || byte(x) == '0' {
			return plainMicros16(b, i, x, y, m)
		}
		v = eightDigits(x)*pow10n[m&7] + eightDigits(y<<((64-8*m)&63))
		j, c = i+8+int(m), byte(y>>(8*m&63))
	case n == 0 || n > 1 && byte(x) == '0':
		return plainMicrosSlow(b, i)
	default: // 1 to 7 digits
		v = eightDigits(x << ((64 - 8*n) & 63))
		j, c = i+int(n), byte(x>>(8*n&63))
	}
	if c != '.' {
		if c|0x20 == 'e' {
			return plainMicrosSlow(b, i)
		}
		return v * 1000, j, true
	}
	f := binary.LittleEndian.Uint64(b[j+1 : j+9]) // j+9 <= i+25
	k := digitsIn(f)
	if k-1 >= 3 {
		return plainMicrosSlow(b, i)
	}
	if c := byte(f >> (8 * k & 63)); c == '.' || c|0x20 == 'e' {
		return plainMicrosSlow(b, i)
	}
	return v*1000 + eightDigits(f<<((64-8*k)&63))*pow10[k&3], j + 1 + int(k), true
}

// plainMicros16 is plainMicrosAt's case of 16 digits (x and y, the words
// at i and i+8; m, y's digits), what a trace stamped in µs since the epoch
// writes ("1712195495519689.047"), out of line so that the shorter times'
// path stays as it was; any other shape takes plainMicrosSlow.
func plainMicros16(b []byte, i int, x, y uint64, m uint) (int64, int, bool) {
	if m != 8 || byte(x) == '0' {
		return plainMicrosSlow(b, i)
	}
	v, j, c := eightDigits(x)*1e8+eightDigits(y), i+16, b[i+16]
	if v >= maxMicros || c-'0' <= 9 || c|0x20 == 'e' {
		return plainMicrosSlow(b, i)
	}
	if c != '.' {
		return v * 1000, j, true
	}
	f := binary.LittleEndian.Uint64(b[j+1 : j+9]) // j+9 <= i+25
	k := digitsIn(f)
	if k-1 >= 3 {
		return plainMicrosSlow(b, i)
	}
	if c := byte(f >> (8 * k & 63)); c == '.' || c|0x20 == 'e' {
		return plainMicrosSlow(b, i)
	}
	return v*1000 + eightDigits(f<<((64-8*k)&63))*pow10[k&3], j + 1 + int(k), true
}

// plainMicrosSlow is plainMicrosAt for any input, a digit run at a time.
func plainMicrosSlow(b []byte, i int) (int64, int, bool) {
	v, j := digitsAt(b, i)
	if n := j - i; n == 0 || n > 16 || v >= maxMicros || n > 1 && b[i] == '0' || j >= len(b) {
		return 0, 0, false
	}
	if b[j] != '.' {
		return v * 1000, j, !numberGoesOn(b[j])
	}
	f, k := digitsAt(b, j+1)
	if n := k - j - 1; n >= 1 && n <= 3 && k < len(b) && !numberGoesOn(b[k]) {
		return v*1000 + f*pow10[n], k, true
	}
	return 0, 0, false
}

// plainInt parses the integer literal at i when it is -?(0|[1-9][0-9]*)
// with at most 18 digits (what parseInt takes): its value and the index
// after it. A literal of 1 to 7 digits, no sign, with 8 bytes from i is
// read in one word; anything else takes plainIntSlow.
func plainInt(b []byte, i int) (int64, int, bool) {
	if i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		if n := digitsIn(x); n-1 < 7 && (n == 1 || byte(x) != '0') {
			if c := byte(x >> (8 * n & 63)); c != '.' && c|0x20 != 'e' {
				return eightDigits(x << ((64 - 8*n) & 63)), i + int(n), true
			}
		}
	}
	return plainIntSlow(b, i)
}

// plainIntSlow is plainInt for any input, a digit run at a time.
func plainIntSlow(b []byte, i int) (int64, int, bool) {
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	v, j := digitsAt(b, i)
	if n := j - i; n == 0 || n > 18 || n > 1 && b[i] == '0' || j >= len(b) || numberGoesOn(b[j]) {
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, j, true
}

// digitsAt reads the digits from i: their value (meaningless past 18
// digits) and the index after them; eight bytes at a time.
func digitsAt(b []byte, i int) (int64, int) {
	var v int64
	for i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		n := bits.TrailingZeros64(nonDigits(x)) / 8 // 8: all digits
		if n == 0 {
			return v, i
		}
		v = v*pow10n[n] + eightDigits(x<<(64-8*n)) // the n digits, as the last of eight
		if i += n; n < 8 {
			return v, i
		}
	}
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		v = v*10 + int64(c)
	}
	return v, i
}

// digitsIn is the number of digits x starts with (its lowest bytes
// first): 0 to 8.
func digitsIn(x uint64) uint {
	return uint(bits.TrailingZeros64(nonDigits(x))) / 8
}

// nonDigits flags (0x80) the bytes of x that are not digits; the lowest
// flagged byte is a real one (borrows and carries run upwards).
func nonDigits(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return ((x - '0'*ones) | (x + (0x80-'9'-1)*ones) | x) & highs
}

// eightDigits is the value of the eight digits in x, the first in its
// lowest byte; zero bytes count as leading zeros.
func eightDigits(x uint64) int64 {
	x = (x & 0x0F0F0F0F0F0F0F0F) * 2561 >> 8
	x = (x & 0x00FF00FF00FF00FF) * 6553601 >> 16
	return int64((x & 0x0000FFFF0000FFFF) * 42949672960001 >> 32)
}

// pow10n is 10 to the power of its index.
var pow10n = [...]int64{1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7, 1e8}

// numberGoesOn tells whether c continues a number after its digits (a
// fraction or an exponent).
func numberGoesOn(c byte) bool { return c == '.' || c == 'e' || c == 'E' }
