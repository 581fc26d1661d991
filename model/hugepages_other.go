//go:build !linux

package model

// hugePages does nothing where transparent huge pages are not offered.
func hugePages([]byte) {}
