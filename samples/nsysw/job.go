package nsysw

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tpptrace/tpptrace/samples"
)

// WriteDir writes job into dir (created if needed): the reports, then
// truth.json and job.json as the other sample writers do.
func WriteDir(dir string, job *samples.Job, opts Options) ([]string, error) {
	paths, err := Write(dir, job.Trace, opts)
	if err != nil {
		return paths, err
	}
	for name, v := range map[string]any{"truth.json": job.Truth, "job.json": job.Config} {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return paths, fmt.Errorf("write %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o644); err != nil {
			return paths, err
		}
	}
	return paths, nil
}
