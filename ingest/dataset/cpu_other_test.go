//go:build !unix

package dataset

import "time"

// cpuTime is unknown here; benchmarks then report zero CPU time.
func cpuTime() time.Duration { return 0 }
