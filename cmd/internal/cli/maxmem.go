package cli

import (
	"flag"

	"github.com/tpptrace/tpptrace"
	"github.com/tpptrace/tpptrace/cmd/internal/gcfloor"
)

// memFlag is --max-memory: the live heap a load may use, in bytes; 0 is
// no limit. Unset, it is three quarters of the machine's memory.
type memFlag struct {
	v   int64
	set bool
}

func (m *memFlag) register(fs *flag.FlagSet) {
	fs.Func("max-memory", "live heap `bytes` reading the inputs may use (4G, 500M; 0: no limit; default 3/4 of the machine's memory)", func(s string) error {
		n, err := parseCount(s)
		m.v, m.set = int64(n), true
		return err
	})
}

// bytes is the budget to read with. A budget lowers the collector's floor
// (gcfloor, the binary's) to half of it: the budget is checked against the
// live heap the last collection marked, and a heap under the floor is not
// collected, so a budget under the floor would go unchecked.
func (m *memFlag) bytes() int64 {
	b := tpptrace.DefaultMaxMemory()
	if m.set {
		b = m.v
	}
	if b > 0 {
		gcfloor.Lower(uint64(b) / 2)
	}
	return b
}
