package kineto

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"
)

// checkPlainNumbers: where the fast number paths take the literal at the
// start of b, it is a valid JSON number that plainMicros (for ts and dur) or
// parseInt (for integers) reads to the same value, ending where it ends.
func checkPlainNumbers(t *testing.T, b []byte) {
	t.Helper()
	if v, e, ok := plainMicrosAt(b, 0); true {
		w, f, wok := plainMicrosSlow(b, 0)
		if v != w || e != f || ok != wok {
			t.Fatalf("%q: plainMicrosAt %d %d %v, plainMicrosSlow %d %d %v", b, v, e, ok, w, f, wok)
		}
	}
	if v, e, ok := plainInt(b, 0); true {
		w, f, wok := plainIntSlow(b, 0)
		if v != w || e != f || ok != wok {
			t.Fatalf("%q: plainInt %d %d %v, plainIntSlow %d %d %v", b, v, e, ok, w, f, wok)
		}
	}
	if v, e, ok := plainMicrosAt(b, 0); ok {
		w, wok := plainMicros(b[:e])
		if !wok || w != v || !json.Valid(b[:e]) || e >= len(b) || numberGoesOn(b[e]) || b[e]-'0' <= 9 {
			t.Fatalf("%q: plainMicrosAt %d up to %d, plainMicros %d %v", b, v, e, w, wok)
		}
		if w, sub, err := fastMicros(b[:e]); err != nil || sub != 0 || w != v {
			t.Fatalf("%q: plainMicrosAt %d, fastMicros %d %v %v", b, v, w, sub, err)
		}
	}
	if v, e, ok := plainInt(b, 0); ok {
		w, wok := parseInt(b[:e])
		if !wok || w != v || !json.Valid(b[:e]) || e >= len(b) || numberGoesOn(b[e]) || b[e]-'0' <= 9 {
			t.Fatalf("%q: plainInt %d up to %d, parseInt %d %v", b, v, e, w, wok)
		}
	}
}

// checkNumber: number (numberEnd's fast path, then numberSlow) ends the
// number at the start of b where numberSlow does, with the same error.
func checkNumber(t *testing.T, b []byte) {
	t.Helper()
	if len(b) == 0 || b[0] != '-' && b[0]-'0' > 9 {
		return
	}
	fast, slow := evDecoder{b: b}, evDecoder{b: b}
	e, w := fast.number(0), slow.numberSlow(0)
	if e != w || fmt.Sprint(fast.err) != fmt.Sprint(slow.err) {
		t.Fatalf("%q: number %d (%v), numberSlow %d (%v)", b, e, fast.err, w, slow.err)
	}
	if e > 0 && !json.Valid(b[:e]) {
		t.Fatalf("%q: number takes %q, not valid JSON", b, b[:e])
	}
}

func TestPlainNumbers(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	alphabet := []byte("0123456789.-eE, }")
	taken, fast := 0, 0
	for n := 0; n < 300000; n++ {
		b := make([]byte, 1+rng.Intn(30))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
			if rng.Intn(3) > 0 {
				b[i] = '0' + byte(rng.Intn(10))
			}
		}
		if _, _, ok := plainMicrosAt(b, 0); ok {
			taken++
		}
		checkPlainNumbers(t, b)
		checkNumber(t, b)
		if e := numberEnd(b, 0); e > 0 {
			fast++
		}
	}
	for _, s := range []string{"4458676416788.066,", "999999999999999.999}", "123456789012345678,", "0,", "0.5,", "-0,",
		"-9223372036854775807,", "12345678,", "0.984848, \"warps per SM\"", "11.818182, \"grid\": [1, 130, 1]",
		"1234567.1234567, 0000000", "4458676416788.066, \"dur\": 35.123, ", "445867641678.0661, \"dur\": 35.123, ",
		"44586764167880.66e, \"dur\": 35.123, ", "12345678, \"dur\": 35.123,     ", "123456789012345, \"dur\": 35.12, ",
		"1234567890123456, \"dur\": 35.12, ", "0123456789012, \"dur\": 35.123, ", "20.5, \"dur\": 35.123, 000000",
		"20.5.1, \"dur\": 35.123, 00000", "20.5E1, \"dur\": 35.123, 00000", "20., \"dur\": 35.123, 000000000",
		"0.001, \"dur\": 35.123, 0000000", "2910249, ", "0, ", "07, ", "-5, ", "1234567e, ", "1234567., ", "1234567.12345678, 00000", "1.e5, 0000000000000", "01234, 00000000000", "0.5e3, 000000000000", "7.0E, 000000000000", "1234567.,", "01,", "1.2345,", "1e3,", "7",
		// 16 digits, as µs since the epoch, about maxMicros (4611686018427387) and past it
		"1712195495519689.047, \"dur\": 63.813, ", "1682725898236567, \"dur\": 68.0, 00000000",
		"4611686018427386.999, \"dur\": 1, 0000000", "4611686018427387, \"dur\": 1, 000000000",
		"4611686018427387.000, \"dur\": 1, 0000000", "4611686018427387.001, \"dur\": 1, 0000000",
		"9999999999999999.999, \"dur\": 1, 0000000", "12345678901234567, \"dur\": 1, 00000000",
		"0123456789012345.5, \"dur\": 1, 000000000", "1712195495519689e3, \"dur\": 1, 00000000",
		"1712195495519689.0471, \"dur\": 1, 000000", "1712195495519689., \"dur\": 1, 00000000",
		"1712195495519689.047,", "4611686018427387,", "4611686018427386.999}"} {
		checkPlainNumbers(t, []byte(s))
		checkNumber(t, []byte(s))
	}
	if fast < 1000 {
		t.Errorf("only %d numbers took numberEnd", fast)
	}
	if taken < 1000 {
		t.Errorf("only %d numbers took the plain path", taken)
	}
	if v, e, ok := plainMicrosAt([]byte("4458676416788.066, "), 0); !ok || v != 4458676416788066 || e != 17 {
		t.Errorf("plainMicrosAt: %d %d %v", v, e, ok)
	}
	if v, e, ok := plainMicrosAt([]byte("1712195495519689.047, \"dur\": 63.813, "), 0); !ok || v != 1712195495519689047 || e != 20 {
		t.Errorf("plainMicrosAt, 16 digits: %d %d %v", v, e, ok)
	}
	if _, _, ok := plainMicrosAt([]byte("4611686018427387.001, \"dur\": 63.813, "), 0); ok {
		t.Errorf("plainMicrosAt takes a time past maxMicros")
	}
	if v, e, ok := plainInt([]byte("-2910249}"), 0); !ok || v != -2910249 || e != 8 {
		t.Errorf("plainInt: %d %d %v", v, e, ok)
	}
}

func FuzzPlainNumbers(f *testing.F) {
	for _, s := range []string{"4458676416788.066, ", "35.5}", "7,", "1e3,", "123456789012345678901,", "-0,",
		"1712195495519689.047, \"dur\": 63.813, ", "4611686018427387.001, \"dur\": 1, 0000000"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkPlainNumbers(t, b)
		checkNumber(t, b)
	})
}
