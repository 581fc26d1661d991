package tpptrace

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// DefaultMaxMemory is the command's default Options.MaxMemory: three
// quarters of the machine's memory, 0 (no limit) when it is not known.
func DefaultMaxMemory() int64 {
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
