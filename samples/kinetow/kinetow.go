// Package kinetow writes a simulated job (samples.Job) as PyTorch profiler
// (Kineto) Chrome traces, one gzipped file per rank, exactly as PyTorch ≥ 2.4
// writes them: ts/dur in µs with three decimals relative to a
// baseTimeNanoseconds shared by all ranks, distributedInfo with the process
// groups, NCCL metadata on kernels and on record_param_comms CPU ops. Beside
// the traces it writes truth.json and job.json (the configuration).
package kinetow

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/tpptrace/tpptrace/samples"
)

// FileName is the trace file of rank r.
func FileName(r int) string { return fmt.Sprintf("rank-%d.pt.trace.json.gz", r) }

// WriteDir writes job into dir (created if needed): one trace per rank,
// truth.json and job.json.
func WriteDir(dir string, job *samples.Job) error { return WriteDirProgress(dir, job, nil) }

// WriteDirProgress is WriteDir with the rank files written on every core,
// calling progress (when not nil) with the files written so far and the
// total after each one; calls are serialised.
func WriteDirProgress(dir string, job *samples.Job, progress func(done, total int)) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write samples: %w", err)
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	done, total := 0, len(job.Trace.Ranks)
	for _, r := range job.Trace.Ranks {
		g.Go(func() error {
			if err := writeFile(filepath.Join(dir, FileName(int(r.Rank))), func(w *bufio.Writer) error {
				return WriteRank(w, job, r.Rank)
			}); err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			if done++; progress != nil {
				progress(done, total)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(dir, "truth.json"), job.Truth); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, "job.json"), job.Config)
}

// writeFile writes path through a buffered gzip stream filled by fill.
func writeFile(path string, fill func(*bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write samples: %w", err)
	}
	zw := gzip.NewWriter(f)
	bw := bufio.NewWriterSize(zw, 1<<16)
	err = fill(bw)
	for _, step := range []func() error{bw.Flush, zw.Close, f.Close} {
		if e := step(); err == nil {
			err = e
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeJSON writes v as indented JSON with a final newline.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write samples: %w", err)
	}
	return nil
}

// MarshalTruth is truth.json's exact bytes for job.
func MarshalTruth(job *samples.Job) ([]byte, error) {
	b, err := json.MarshalIndent(job.Truth, "", "  ")
	return append(b, '\n'), err
}
