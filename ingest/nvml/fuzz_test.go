package nvml

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadFile reads arbitrary bytes as a samples file: rows or an error,
// never a panic; the rows convert to a valid trace.
func FuzzReadFile(f *testing.F) {
	good := filepath.Join(f.TempDir(), "s.parquet")
	w, err := NewWriter(good)
	if err != nil {
		f.Fatal(err)
	}
	w.Add(testRows(6, "node0")...)
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add(append([]byte("PAR1"), b[len(b)-64:]...))
	p := filepath.Join(f.TempDir(), "fuzz.parquet")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		rows, err := ReadFile(p)
		if err != nil {
			return
		}
		if err := ToTrace(rows).Validate(); err != nil {
			t.Fatalf("rows of an accepted file make an invalid trace: %v", err)
		}
	})
}

// TestCorruptSamplesFilesAreErrors flips a few bytes of a good file, 40
// times (the 9th once panicked inside parquet-go): an error or rows, never
// a panic.
func TestCorruptSamplesFilesAreErrors(t *testing.T) {
	good := filepath.Join(t.TempDir(), "s.parquet")
	w, err := NewWriter(good)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(testRows(6, "node0")...)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(good)
	p := filepath.Join(t.TempDir(), "f.parquet")
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 40; i++ {
		d := append([]byte(nil), b...)
		for k := 0; k < 1+rng.IntN(4); k++ {
			d[rng.IntN(len(d))] = byte(rng.IntN(256))
		}
		os.WriteFile(p, d, 0o644)
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("corruption %d panicked: %v", i, r)
				}
			}()
			ReadFile(p)
			Sniff(p, d)
		}()
	}
}
