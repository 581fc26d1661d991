//go:build !linux

package dataset

// hugePages does nothing where transparent huge pages are not offered.
func hugePages([]byte) {}
