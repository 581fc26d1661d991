package cli

import (
	"bufio"
	"flag"
	"os"
	"strconv"
	"strings"
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
	return machineMemory() / 4 * 3
}

// machineMemory is MemTotal from /proc/meminfo, 0 when unknown (no limit).
func machineMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
