package flightrec

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/hang"
	"github.com/tpptrace/tpptrace/model"
)

// FuzzDumpFrom feeds the Flight Recorder value decoder (pickle or JSON,
// then dumpFrom and Diagnose): no panic, and an error quotes little.
func FuzzDumpFrom(f *testing.F) {
	f.Add(frBomb(6, 4))
	f.Add(frBomb(2, 3))
	f.Add([]byte(`{"version": "2.9", "pg_config": {"0": {"name": "0", "desc": "default_pg", "ranks": "[0, 1]"}}, "pg_status": {},
		"entries": [{"record_id": 0, "pg_id": 0, "process_group": ["0", "default_pg"], "collective_seq_id": 1, "profiling_name": "nccl:all_reduce",
		"state": "completed", "time_created_ns": 5, "duration_ms": 1.5, "input_sizes": [[4]], "input_dtypes": ["Float"]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkStreamed(t, b)
		v, err := decodeDump(b)
		if err != nil {
			return
		}
		d, err := dumpFrom(v, 0)
		if err != nil {
			if len(err.Error()) > 4096 {
				t.Fatalf("the error quotes %d bytes", len(err.Error()))
			}
			return
		}
		d.Path, d.Rank = "rank_0", 0
		hang.Diagnose([]*model.FRDump{d})
	})
}

// checkStreamed holds the streamed read of a JSON dump to decoding it
// whole and converting it: the same dump, or an error for an error.
func checkStreamed(t *testing.T, b []byte) {
	if len(b) > 0 && b[0] == 0x80 {
		return
	}
	var want *model.FRDump
	v, err := decodeDump(b)
	if err == nil {
		want, err = dumpFrom(v, 0)
		want, err = finish("rank_0", want, err)
	}
	got, _, gerr := readJSON("rank_0", bytes.NewReader(b), 0, true)
	if (err == nil) != (gerr == nil) || err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("streamed %+v (%v), decoded whole %+v (%v)", got, gerr, want, err)
	}
}
