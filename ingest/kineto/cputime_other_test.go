//go:build !unix

package kineto

import "time"

// cpuTime is not measured here: the cpu-MB/s figure is left out.
func cpuTime() time.Duration { return 0 }
