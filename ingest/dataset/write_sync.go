package dataset

import (
	"errors"
	"os"
	"sync"
)

// syncer fsyncs the files of a write (Manifest.Sync) in the background as
// each is written, up to syncers at a time, so that a file's wait for the
// disk overlaps the writing of the next ones rather than following the
// whole write; wait returns once every fsync is done. A nil syncer syncs
// nothing.
type syncer struct {
	slots chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	errs  []error
}

// syncers is how many fsyncs a syncer keeps in flight: they wait on the
// disk, each on a thread of its own, and fsyncs in flight together share
// the journal's commits.
const syncers = 16

func newSyncer() *syncer { return &syncer{slots: make(chan struct{}, syncers)} }

// add fsyncs the file or directory at path in the background.
func (s *syncer) add(path string) {
	if s == nil {
		return
	}
	s.wg.Add(1)
	s.slots <- struct{}{}
	go func() {
		defer func() { <-s.slots; s.wg.Done() }()
		if err := fsync(path); err != nil {
			s.mu.Lock()
			s.errs = append(s.errs, err)
			s.mu.Unlock()
		}
	}()
}

// wait returns once every fsync added is done, with their errors.
func (s *syncer) wait() error {
	if s == nil {
		return nil
	}
	s.wg.Wait()
	return errors.Join(s.errs...)
}

// fsync opens path read-only and syncs it (which works for files and
// directories alike).
func fsync(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
