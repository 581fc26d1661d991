package sampletest

import (
	"strings"
	"sync"
)

// Warnings collects warnings (a source.Options.Warn) from any goroutine.
type Warnings struct {
	mu   sync.Mutex
	msgs []string
}

// Add records one warning.
func (w *Warnings) Add(m string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, m)
}

// Msgs is a copy of the warnings so far, in the order they came.
func (w *Warnings) Msgs() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.msgs...)
}

// String is the warnings so far, one a line.
func (w *Warnings) String() string { return strings.Join(w.Msgs(), "\n") }
