package nccl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// HashKey is the job-wide key of the communicator whose NCCL commHash is h:
// "nccl:" and 16 hex digits, the key ingest/nsys gives the "NCCL
// communicator ID" of NVTX payloads, so that logs, Inspector and profiler
// records and nsys exports of one job name a communicator alike.
func HashKey(h uint64) string { return fmt.Sprintf("nccl:%016x", h) }

// HexKey is HashKey of a "0x…" hash as logs and Inspector print it.
func HexKey(s string) string {
	h, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s), "0x"), 16, 64)
	if err != nil {
		return "nccl:" + strings.ToLower(s)
	}
	return HashKey(h)
}

// NamedComm is a communicator whose axis may be told by its name or
// description: the axis is set, decided "by description", when CommAxis
// can read it.
func NamedComm(id, name, desc string, members []int32) model.Communicator {
	c := model.Communicator{ID: id, Name: name, Desc: desc, Members: members}
	if a := CommAxis(c); a != model.AxisUnknown {
		c.Axis, c.AxisBy = a, model.AxisByDescription
	}
	return c
}
