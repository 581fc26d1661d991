package kineto

import (
	"bytes"
	"strconv"
)

// rawEvent is the part of one traceEvents element that the reader uses.
// Collective arguments are decoded with the rest (commFields) and read
// only for the events that describe a collective.
type rawEvent struct {
	Ph   string  `json:"ph"`
	Cat  string  `json:"cat"`
	Name string  `json:"name"`
	Pid  idVal   `json:"pid"`
	Tid  idVal   `json:"tid"`
	Ts   numText `json:"ts"`
	Dur  numText `json:"dur"`
	Args rawArgs `json:"args"`

	nameEnt *strEntry // Name's entry in the decoder's cache; nil from other decoders or when cut
}

// rawArgs are the args every event may carry. Missing ints stay -1.
type rawArgs struct {
	ExtID  int64  `json:"External id"`
	Corr   int64  `json:"correlation"`
	Stream int64  `json:"stream"`
	Device int64  `json:"device"`
	Name   string `json:"name"`   // thread_name / process_name metadata
	Labels string `json:"labels"` // process_labels metadata

	// [memory] instant events (profile_memory=True).
	DevID     int64 `json:"Device Id"`       // -1 for host memory
	Allocated int64 `json:"Total Allocated"` // allocator level after the event, bytes
	Reserved  int64 `json:"Total Reserved"`  // bytes reserved from the driver

	commFields
}

// reset clears e for the next decode, keeping the number buffers (own).
func (e *rawEvent) reset() {
	e.Ph, e.Cat, e.Name = "", "", "" // (nearly every event sets them again)
	// the other pointers are written only when set: a pointer write costs
	// a barrier while the collector runs
	if e.nameEnt != nil {
		e.nameEnt = nil
	}
	e.Pid.N, e.Tid.N, e.Pid.IsStr, e.Tid.IsStr = 0, 0, false, false
	if e.Pid.Str != "" || e.Tid.Str != "" {
		e.Pid.Str, e.Tid.Str = "", ""
	}
	e.Ts.b, e.Dur.b = nil, nil
	e.Ts.set, e.Dur.set, e.Ts.plain, e.Dur.plain = false, false, false, false
	a := &e.Args
	a.ExtID, a.Corr, a.Stream, a.Device = -1, -1, -1, -1
	a.DevID, a.Allocated, a.Reserved = -1, -1, -1
	if a.Name != "" || a.Labels != "" {
		a.Name, a.Labels = "", ""
	}
	a.commFields.clear()
}

// numText keeps the text of a JSON number (or of a string holding one),
// and its nanoseconds when plainMicros takes it (plain). The one-pass
// decoder's plain text is the input's bytes (valid while the event is
// handled), other text a copy in own.
type numText struct {
	b     []byte
	own   []byte
	set   bool
	plain bool
	ns    int64
}

// micros is parseMicros of the text, without parsing it again when plain.
func (n *numText) micros() (int64, float64, error) {
	if n.plain {
		return n.ns, 0, nil
	}
	return parseMicros(n.b)
}

func (n *numText) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if len(b) >= 2 && b[0] == '"' {
		b = b[1 : len(b)-1]
	}
	n.own = append(n.own[:0], b...)
	n.b, n.set = n.own, true
	n.ns, n.plain = plainMicros(n.b)
	return nil
}

// idVal is a pid or tid: an integer, or a string such as "Spans".
type idVal struct {
	N     int64
	Str   string
	IsStr bool
}

func (v *idVal) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		s, err := strconv.Unquote(string(b))
		if err != nil {
			s = string(b[1 : len(b)-1])
		}
		*v = idVal{Str: s, IsStr: true}
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			*v = idVal{N: n}
		}
		return nil
	}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	n, ok := parseInt(b)
	if !ok {
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil {
			return err
		}
		n = int64(f)
	}
	v.N = n
	return nil
}

// parseInt parses a decimal integer without allocating.
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	n, ok := digits(b, 18)
	if neg {
		n = -n
	}
	return n, ok
}

// digits parses 1 to most decimal digits, nothing else.
func digits(b []byte, most int) (int64, bool) {
	if len(b) == 0 || len(b) > most {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}
