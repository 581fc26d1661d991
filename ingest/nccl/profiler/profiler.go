package profiler

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/nccl"
)

// ProfEvent is one begin/end pair of NCCL's example profiler plugin.
type ProfEvent struct {
	Name  string // AllReduce, Send, KernelCh, ...
	Cat   string // COLL, P2P, GPU, PROXY, ...
	ID    int64
	PID   int64
	Begin float64 // µs since the plugin started (per process)
	End   float64 // -1 when the end is missing
	Args  map[string]any
}

type profLine struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Ph   string         `json:"ph"`
	ID   int64          `json:"id"`
	PID  int64          `json:"pid"`
	TS   json.Number    `json:"ts"`
	Args map[string]any `json:"args"`
}

// bareValue matches an unquoted pointer or identifier value, as NCCL
// 2.28–2.29 print "datatype": ncclFloat32 and "Stream": 0x4142e90.
var bareValue = regexp.MustCompile(`(:\s*)(0x[0-9a-fA-F]+|[A-Za-z_][A-Za-z0-9_]*)(\s*[,}])`)

// repairLine makes one event line valid JSON: typographic quotes become
// quotes, bare pointers and identifiers are quoted, the trailing comma goes.
func repairLine(s string) string {
	s = strings.NewReplacer("\u201c", `"`, "\u201d", `"`).Replace(strings.TrimSpace(s))
	s = strings.TrimSuffix(strings.TrimSuffix(s, ","), "]")
	s = strings.TrimPrefix(s, "[")
	return bareValue.ReplaceAllStringFunc(s, func(m string) string {
		p := bareValue.FindStringSubmatch(m)
		if p[2] == "true" || p[2] == "false" || p[2] == "null" {
			return m
		}
		return p[1] + strconv.Quote(p[2]) + p[3]
	})
}

// ParseProfiler reads an example-profiler-plugin trace (one event per line,
// as the plugin writes it) and pairs begin and end events by (category, id).
// Lines that are not events even after repair are returned as skips.
func ParseProfiler(r io.Reader) ([]ProfEvent, []nccl.LineSkip, error) { return parse(r, 0) }

// parse is ParseProfiler within the memory budget maxMem (0: none).
func parse(r io.Reader, maxMem int64) ([]ProfEvent, []nccl.LineSkip, error) {
	var evs []ProfEvent
	var skips []nccl.LineSkip
	open := map[string]int{}
	err := nccl.EachLine(r, maxMem, func(n int64, text string) {
		var l profLine
		if ok, skip := decodeLine(n, text, &l); skip != nil {
			skips = append(skips, *skip)
		} else if ok {
			evs = pairEvent(evs, open, l)
		}
	}, func(n int64) { skips = append(skips, nccl.LineSkip{Line: n, Reason: nccl.LongLine}) })
	return evs, skips, err
}

// decodeLine repairs and decodes one event line into v: ok when it holds
// an event, a skip when it cannot be read.
func decodeLine(n int64, text string, v any) (ok bool, skip *nccl.LineSkip) {
	s := repairLine(text)
	if s == "" || s == "{}" {
		return false, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return false, &nccl.LineSkip{Line: n, Reason: fmt.Sprintf("not a profiler event: %v", nccl.Cut(err.Error()))}
	}
	return true, nil
}

func pairEvent(evs []ProfEvent, open map[string]int, l profLine) []ProfEvent {
	k := fmt.Sprintf("%d/%s/%d", l.PID, l.Cat, l.ID)
	switch l.Ph {
	case "b":
		open[k] = len(evs)
		ts, _ := l.TS.Float64()
		return append(evs, ProfEvent{Name: l.Name, Cat: l.Cat, ID: l.ID, PID: l.PID, Begin: ts, End: -1, Args: l.Args})
	case "e":
		if i, ok := open[k]; ok {
			evs[i].End, _ = l.TS.Float64()
			delete(open, k)
		}
	}
	return evs
}

// profViews returns the communicator memberships COLL and P2P events show.
func profViews(evs []ProfEvent, host string) []nccl.CommView {
	seen := map[nccl.CommView]bool{}
	var out []nccl.CommView
	for _, e := range evs {
		if e.Cat != "COLL" && e.Cat != "P2P" {
			continue
		}
		hash, ok := argUint(e.Args["CommHash"])
		rank, ok2 := argUint(e.Args["Rank"])
		if !ok || !ok2 {
			continue
		}
		v := nccl.CommView{ID: nccl.HashKey(hash), Host: host, PID: e.PID, Rank: int32(rank), NRanks: -1}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return countMembers(out)
}

// countMembers sets NRanks to the number of distinct ranks seen per comm.
func countMembers(vs []nccl.CommView) []nccl.CommView {
	n := map[string]int32{}
	for _, v := range vs {
		n[v.ID]++
	}
	for i := range vs {
		vs[i].NRanks = n[vs[i].ID]
	}
	return vs
}

// argUint reads a JSON number exactly (CommHash needs all 64 bits).
func argUint(v any) (uint64, bool) {
	switch x := v.(type) {
	case json.Number:
		u, err := strconv.ParseUint(x.String(), 10, 64)
		return u, err == nil
	case float64:
		return uint64(x), x >= 0
	case string:
		u, err := strconv.ParseUint(x, 0, 64)
		return u, err == nil
	}
	return 0, false
}
