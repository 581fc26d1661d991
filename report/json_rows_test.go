package report

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// marshalRows is what appendRows stands for: the rows encoded by
// encoding/json, with a comma in place of the '[' and no ']', indented at
// the rows' elements' depth.
func marshalRows(t *testing.T, rows []result.TimelineRow, depth int) []byte {
	t.Helper()
	c, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	c[0] = ','
	b, _ := indentFrom(nil, c[:len(c)-1], depth)
	return b
}

// rowsFrom decodes fuzz bytes into timeline rows: numbers of every sign
// and size, strings cut from the data (quotes, backslashes, control
// bytes, HTML, invalid UTF-8, U+2028), nil and empty segment lists.
func rowsFrom(data []byte) []result.TimelineRow {
	var rows []result.TimelineRow
	next := func(n int) []byte {
		n = min(n, len(data))
		b := data[:n]
		data = data[n:]
		return b
	}
	one := func() int {
		if b := next(1); len(b) == 1 {
			return int(b[0])
		}
		return 0
	}
	num := func() int64 {
		var b [8]byte
		copy(b[:], next(one()%9))
		return int64(binary.LittleEndian.Uint64(b[:]))
	}
	for len(data) > 2 {
		h := next(2)
		row := result.TimelineRow{Rank: int(num()), Stage: int(int32(num()))}
		if h[0]&1 == 0 {
			row.Segments = []result.Segment{}
		}
		for range int(h[1] % 5) {
			if len(data) == 0 {
				break
			}
			s := result.Segment{StartNs: num(), EndNs: num(), Category: string(next(one() % 12))}
			if len(data) > 0 && data[0]&1 == 1 {
				s.Micro = int(num())
			}
			if len(data) > 0 && data[0]&2 == 2 {
				s.Phase = string(next(one() % 6))
			}
			row.Segments = append(row.Segments, s)
		}
		rows = append(rows, row)
	}
	return rows
}

func checkRows(t *testing.T, rows []result.TimelineRow) {
	t.Helper()
	for _, depth := range []int{0, 3, 40} {
		want := marshalRows(t, rows, depth)
		if len(rows) == 0 {
			want = nil
		}
		if got := appendRows(nil, rows, depth); !bytes.Equal(got, want) {
			t.Fatalf("depth %d: appendRows\n%q\nwant (encoding/json)\n%q", depth, got, want)
		}
	}
}

func TestAppendRowsIsEncodingJSON(t *testing.T) {
	rows := withTimeline(9).Timeline.Rows
	rows = append(rows, result.TimelineRow{Rank: -3}, result.TimelineRow{Rank: 1 << 40, Segments: []result.Segment{}},
		result.TimelineRow{Segments: []result.Segment{{StartNs: -1, EndNs: 1<<63 - 1, Category: "a\"b\\c<d>&e\x01\u2028\xff", Micro: -7, Phase: "é"},
			{Category: "<b>"}, {Category: "<"}, {Category: "&"}, {Category: ">"}, {Category: "tab\t"}, {Category: "\x7f"}, {Category: "\u2028"}}})
	checkRows(t, rows)
}

func FuzzAppendRows(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x03\x01\x05\x02\x07\x08\x01\x02\x03\x04\x05\x06\x07\x08\x05compu\x03\x03fwd"))
	f.Add([]byte("\x01\x04\x08\xff\xff\xff\xff\xff\xff\xff\x7f\x01\x80\x0ba\"\\<>&\x01\xe2\x80\xa8\xff"))
	f.Fuzz(func(t *testing.T, data []byte) { checkRows(t, rowsFrom(data)) })
}

// TestRowFieldsAreAppendRows: appendRow writes these fields, with these
// tags, in this order; a field added to a row or a segment must be added
// there too (and this list).
func TestRowFieldsAreAppendRows(t *testing.T) {
	for typ, want := range map[reflect.Type][]string{
		reflect.TypeFor[result.TimelineRow](): {"Rank int json:\"rank\"", "Stage int json:\"stage\"", "Segments []result.Segment json:\"segments\""},
		reflect.TypeFor[result.Segment](): {"StartNs int64 json:\"start_ns\"", "EndNs int64 json:\"end_ns\"", "Category string json:\"category\"",
			"Micro int json:\"micro,omitempty\"", "Phase string json:\"phase,omitempty\""},
	} {
		var got []string
		for f := range typ.Fields() {
			got = append(got, f.Name+" "+f.Type.String()+" "+string(f.Tag))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s fields %q, appendRow writes %q", typ, got, want)
		}
		if typ.Implements(reflect.TypeFor[json.Marshaler]()) || reflect.PointerTo(typ).Implements(reflect.TypeFor[json.Marshaler]()) {
			t.Errorf("%s marshals itself: appendRow does not", typ)
		}
	}
}
