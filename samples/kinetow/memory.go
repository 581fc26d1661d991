package kinetow

import "fmt"

// reservedGrain is the allocator's segment size the written "Total
// Reserved" rounds up to.
const reservedGrain = 2 << 20

// memory writes the rank's allocated-memory counters as the [memory]
// instants PyTorch writes with profile_memory=True. "Total Reserved" is the
// highest level so far rounded up to 2 MiB (a caching allocator keeps what
// it reserved).
func (rw *rankWriter) memory() {
	c := &rw.t.Counters
	prev, reserved := int64(0), int64(0)
	for i := 0; i < c.Len(); i++ {
		if c.Rank[i] != rw.rank.Rank {
			continue
		}
		v := c.Value[i]
		reserved = max(reserved, (v+reservedGrain-1)/reservedGrain*reservedGrain)
		rw.sep()
		b := fmt.Appendf(rw.buf, `  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": %d, "tid": %d, "ts": `, rw.rank.PID, rw.rank.PID)
		b = appendTs(b, c.Time[i])
		rw.buf = fmt.Appendf(b, `, "args": {"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Addr": %d, "Device Type": 1, "Device Id": %d}}`,
			reserved, v, v-prev, 0x7f0000000000+int64(i)*512, rw.rank.LocalGPU)
		prev = v
		if len(rw.buf) > 1<<15 {
			rw.flush()
		}
	}
}
