package kineto

import (
	"bytes"
	"os"
	"testing"

	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/shared"
)

// FuzzKineto feeds arbitrary bytes through the splitter and the element
// decoder. Reading must never panic, and whatever it accepts must validate.
func FuzzKineto(f *testing.F) {
	f.Add([]byte(miniTrace))
	f.Add([]byte(`{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"stream": 7, "correlation": 3, "Collective name": "allreduce", "In msg nelems": 10, "dtype": "Float", "Process Group Name": "0", "Process Group Ranks": "[0, 1]"}}]}`))
	f.Add([]byte(`[{"ph": "X", "cat": "cpu_op", "name": "a", "pid": "Spans", "tid": 1, "ts": "1e3", "dur": 1},]`))
	f.Add([]byte(`{"traceEvents": [{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":9}], "distributedInfo": {"rank": 2, "pg_config": [{"pg_name": "1", "ranks": [2, 3]}]}}`))
	f.Add([]byte(`{"traceEvents": [{"a": "\"}]", "b": [1, {"c": null}]}]}`))
	for _, p := range sharedSnippets(f) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := newFileReader("fuzz.json", nil, DefaultStepRegex)
		if err := newSplitter(bytes.NewReader(data)).run(fr); err != nil {
			return
		}
		rank, _, err := rankOf("fuzz.json", fr.info, nil, true)
		if err != nil {
			return
		}
		tr, err := combine([]fileResult{{path: "fuzz.json", tr: fr.finish(rank, int64(len(data))), lists: fr.pgLists()}})
		if err != nil {
			return
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("accepted input gives an invalid trace: %v", err)
		}
		_ = model.KindComm
	})
}

// sharedSnippets returns the first 6 KiB of each plain shared trace, cut
// after an event and closed, as seeds; none when ../shared is absent (the
// inline seeds above are the corpus then: the target must not skip).
func sharedSnippets(f *testing.F) [][]byte {
	root, err := shared.Find("traces", "kineto")
	if err != nil {
		f.Logf("no shared seeds: %v", err)
		return nil
	}
	sets, err := traceSetsIn(root)
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, files := range sets {
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil || len(b) < 8192 || b[0] == 0x1f {
				continue
			}
			b = b[:6144]
			if i := bytes.LastIndex(b, []byte("},")); i > 0 {
				out = append(out, append(append([]byte{}, b[:i+1]...), "]}"...))
			}
			break
		}
	}
	return out
}
