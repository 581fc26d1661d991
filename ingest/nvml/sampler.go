package nvml

import (
	"context"
	"errors"
	"time"
)

// ErrNoNVML means this build of tpptrace has no NVML support (built without
// cgo or without the nvml build tag: ingest/nvml/live).
var ErrNoNVML = errors.New("this tpptrace was built without NVML support; rebuild it with cgo and the nvml tag: CGO_ENABLED=1 go install -tags nvml ./cmd/tpptrace")

// ErrNoDriver means NVML could not be loaded: no NVIDIA driver on this machine.
var ErrNoDriver = errors.New("NVML library (libnvidia-ml.so.1) not found: no NVIDIA driver on this machine")

// Source takes one sampling pass over every GPU it watches.
type Source interface {
	Sample(now time.Time) ([]Row, error)
	Close() error
}

// Options control a sampling run.
type Options struct {
	Interval time.Duration  // between passes; default 100 ms
	Duration time.Duration  // 0: until ctx is done
	Flush    time.Duration  // between part files; default 10 s
	OnPass   func(rows int) // called after each pass with the rows so far
}

// Run samples src every Interval into w until Duration has passed or ctx is
// done (SIGINT/SIGTERM in the command), flushing every Flush, and closes w.
// A failed pass is returned only if no pass has ever succeeded.
func Run(ctx context.Context, src Source, w *Writer, o Options) error {
	o = o.withDefaults()
	if o.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Duration)
		defer cancel()
	}
	tick, flush := time.NewTicker(o.Interval), time.NewTicker(o.Flush)
	defer tick.Stop()
	defer flush.Stop()
	if err := loop(ctx, src, w, o, tick.C, flush.C); err != nil {
		return err
	}
	return w.Close()
}

func (o Options) withDefaults() Options {
	if o.Interval <= 0 {
		o.Interval = 100 * time.Millisecond
	}
	if o.Flush <= 0 {
		o.Flush = 10 * time.Second
	}
	return o
}

func loop(ctx context.Context, src Source, w *Writer, o Options, tick <-chan time.Time, flush <-chan time.Time) error {
	var firstErr error
	ok := false
	pass := func(now time.Time) {
		rows, err := src.Sample(now)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		ok = ok || err == nil
		w.Add(rows...)
		if o.OnPass != nil {
			o.OnPass(w.Rows())
		}
	}
	pass(time.Now())
	for {
		select {
		case <-ctx.Done():
			return failedAll(ok, firstErr)
		case now := <-tick:
			pass(now)
		case <-flush:
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
}

func failedAll(ok bool, err error) error {
	if !ok && err != nil {
		return err
	}
	return nil
}
