package cli

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tpptrace/tpptrace/model/vocab"
)

// warnings collects the readers' warnings while the inputs load, so that
// they do not tear the progress bar and so that a warning the final error
// repeats is not printed twice (a lone unreadable .nsys-rep is both "skipping
// X: why" and the error "nsys: X: why").
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

// add records one warning; it is safe for concurrent readers.
func (w *warnings) add(m string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, m)
}

// flush prints the warnings that err does not already say.
func (w *warnings) flush(env *Env, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, m := range w.msgs {
		if err == nil || !repeats(err.Error(), m) {
			fmt.Fprintf(env.Stderr, "warning: %s\n", vocab.Safe(m))
		}
	}
	w.msgs = nil
}

// repeats tells whether the error text already holds the warning m, with or
// without its "skipping " lead.
func repeats(errText, m string) bool {
	return strings.Contains(errText, m) || strings.Contains(errText, strings.TrimPrefix(m, "skipping "))
}
