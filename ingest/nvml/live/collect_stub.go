//go:build !cgo || !linux || !nvml

package live

import "github.com/tpptrace/tpptrace/ingest/nvml"

// OpenSystem reports that NVML is not available in this build.
func OpenSystem() (nvml.Source, error) { return nil, nvml.ErrNoNVML }
