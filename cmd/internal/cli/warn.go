package cli

import (
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// warnings collects the readers' warnings while the inputs load, so that
// they do not tear the progress bar and so that a warning the final error
// repeats is not printed twice (a lone unreadable .nsys-rep is both "skipping
// X: why" and the error "nsys: X: why").
type warnings struct{ source.Warnings }

// flush prints the warnings that err does not already say.
func (w *warnings) flush(env *Env, err error) {
	for _, m := range w.Take() {
		if err == nil || !repeats(err.Error(), m) {
			fmt.Fprintf(env.Stderr, "warning: %s\n", vocab.Safe(m))
		}
	}
}

// repeats tells whether the error text already holds the warning m, with or
// without its "skipping " lead.
func repeats(errText, m string) bool {
	return strings.Contains(errText, m) || strings.Contains(errText, strings.TrimPrefix(m, "skipping "))
}
