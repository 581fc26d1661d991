package kineto

import (
	"math/rand"
	"testing"
)

// checkPlainMicros: where plainMicros takes a number, it gives what
// fastMicros gives.
func checkPlainMicros(t *testing.T, b []byte) {
	v, ok := plainMicros(b)
	if !ok {
		return
	}
	w, sub, err := fastMicros(b)
	if err != nil || sub != 0 || v != w {
		t.Fatalf("%q: plain %d, fast %d %v %v", b, v, w, sub, err)
	}
}

func TestPlainMicrosEqualsFast(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	alphabet := []byte("0123456789.-e")
	taken := 0
	for n := 0; n < 200000; n++ {
		b := make([]byte, 1+rng.Intn(20))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
			if rng.Intn(4) > 0 {
				b[i] = '0' + byte(rng.Intn(10))
			}
		}
		if _, ok := plainMicros(b); ok {
			taken++
		}
		checkPlainMicros(t, b)
	}
	for _, s := range []string{"0", "1.5", "4458676416788.066", "999999999999999.999", "1.", ".5", "1.2345", "1234567890123456",
		"1712195495519689.047", "4611686018427386.999", "4611686018427387", "4611686018427387.000",
		"4611686018427387.001", "4611686018427388", "9999999999999999.999", "12345678901234567"} {
		checkPlainMicros(t, []byte(s))
	}
	if taken < 1000 {
		t.Errorf("only %d numbers took the plain path", taken)
	}
}

func FuzzPlainMicros(f *testing.F) {
	for _, s := range []string{"4458676416788.066", "35.5", "7", "1e3", "1.23456", "1712195495519689.047", "4611686018427387.001"} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkPlainMicros)
}
