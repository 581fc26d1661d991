//go:build !cgo || !linux

package nvml

// OpenSystem reports that NVML is not available in this build.
func OpenSystem() (Source, error) { return nil, ErrNoNVML }
