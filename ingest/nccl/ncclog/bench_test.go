package ncclog_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nccl/ncclog"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/ncclw"
)

// big64Log is the INFO log of every host of the big-64 scenario, one file's
// worth (as if every process appended to one log).
func big64Log(b *testing.B) []byte {
	job, err := samples.Big64(0, 0)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	seen := map[string]bool{}
	for _, r := range job.Trace.Ranks {
		if !seen[r.Host] {
			seen[r.Host] = true
			if err := ncclw.WriteLog(&buf, job, r.Host); err != nil {
				b.Fatal(err)
			}
		}
	}
	return buf.Bytes()
}

// BenchmarkParseLog parses big-64's logs (64 ranks, 3 steps, one COLL line
// per communication kernel); reports lines/s besides MB/s.
func BenchmarkParseLog(b *testing.B) {
	in := big64Log(b)
	lines := bytes.Count(in, []byte{'\n'})
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		l, err := ncclog.ParseLog("big64.log", bytes.NewReader(in))
		if err != nil || len(l.Skipped) != 0 {
			b.Fatalf("err %v skipped %d", err, len(l.Skipped))
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkReadLogs reads big-64's logs (one a host, 8) on one goroutine
// and on GOMAXPROCS (source.InOrder); reports MB/s.
func BenchmarkReadLogs(b *testing.B) {
	job, err := samples.Big64(0, 0)
	if err != nil {
		b.Fatal(err)
	}
	paths, err := ncclw.WriteLogs(b.TempDir(), job)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	for _, w := range []struct {
		name    string
		workers int
	}{{"one", 1}, {"all", 0}} {
		b.Run(w.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				if _, err := ncclog.Format.Read(context.Background(), paths, source.Options{Workers: w.workers}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
