// Package cputime gives benchmarks the CPU time of their process, so that
// per-core figures (MB or rows per CPU-second) do not depend on how busy a
// shared machine is.
package cputime

import "time"

// Process is the user and system CPU time this process has used so far,
// every thread included; 0 where the platform does not tell.
func Process() time.Duration { return process() }
