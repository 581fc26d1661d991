package cli

import (
	"flag"

	"github.com/tpptrace/tpptrace"
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

// bytes is the budget to read with.
func (m *memFlag) bytes() int64 {
	if m.set {
		return m.v
	}
	return tpptrace.DefaultMaxMemory()
}
