package nsys

import (
	"encoding/json"
	"strconv"
	"strings"
)

// payload is one NCCL NVTX extended payload, decoded from jsonText.
type payload struct {
	comm    uint64
	hasComm bool
	bytes   int64 // -1 when absent
	peer    int32 // rank within the communicator, -1 when absent
	nranks  int32 // -1 when absent
	rank    int32 // -1 when absent
	device  int32 // -1 when absent
}

// parsePayload decodes NCCL's payload keys; other keys are ignored and a
// malformed text gives ok=false.
func parsePayload(text string) (p payload, ok bool) {
	p = payload{bytes: -1, peer: -1, nranks: -1, rank: -1, device: -1}
	if strings.TrimSpace(text) == "" {
		return p, false
	}
	m, ok := flatJSON(text)
	if !ok && !decodeJSON(text, &m) {
		return p, false
	}
	p.comm, p.hasComm = payloadUint(m["NCCL communicator ID"])
	p.bytes = payloadInt(m, -1, "Message size [bytes]", "Bytes")
	p.peer = int32(payloadInt(m, -1, "Peer rank"))
	p.nranks = int32(payloadInt(m, -1, "No. of ranks"))
	p.rank = int32(payloadInt(m, -1, "Rank"))
	p.device = int32(payloadInt(m, -1, "CUDA device"))
	return p, true
}

// decodeJSON decodes the first JSON value of text as encoding/json does
// (numbers as json.Number).
func decodeJSON(text string, m *map[string]any) bool {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	return dec.Decode(m) == nil
}

func payloadInt(m map[string]any, def int64, keys ...string) int64 {
	for _, k := range keys {
		if v, ok := payloadUint(m[k]); ok && v <= 1<<62 {
			return int64(v)
		}
	}
	return def
}

// payloadUint accepts a JSON number or a string of digits (commas allowed,
// as the GUI prints them, or 0x-prefixed hex).
func payloadUint(v any) (uint64, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = strings.ReplaceAll(strings.TrimSpace(x), ",", "")
	default:
		return 0, false
	}
	n, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f < 0 {
			return 0, false
		}
		return uint64(f), true
	}
	return n, true
}
