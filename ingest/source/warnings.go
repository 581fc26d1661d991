package source

import "sync"

// Warnings keeps warnings (Add is an Options.Warn) from any goroutine, in
// the order they came, for a caller that says them later: after a
// progress bar, or once a read is known to go on.
type Warnings struct {
	mu   sync.Mutex
	msgs []string
}

// Add keeps one warning.
func (w *Warnings) Add(m string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, m)
}

// Msgs is a copy of the warnings so far.
func (w *Warnings) Msgs() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.msgs...)
}

// Take returns the warnings so far and forgets them.
func (w *Warnings) Take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	msgs := w.msgs
	w.msgs = nil
	return msgs
}
