package kineto

import (
	"context"
	"reflect"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestDecodersAgree reads every shared trace with the one-pass decoder and
// with encoding/json on the elements the splitter cuts (the two-step path
// before it) and requires identical traces.
func TestDecodersAgree(t *testing.T) {
	for name, files := range traceSets(t) {
		for _, f := range files {
			prog := newProgress(nil, nil)
			a := readFileWith(context.Background(), f, source.Options{}, false, prog, nil, newRankIntern())
			b := readFileWith(context.Background(), f, source.Options{}, false, prog, stdDecoder{}, newRankIntern())
			if a.err != nil || b.err != nil {
				t.Fatalf("%s: one-pass err %v, std err %v", f, a.err, b.err)
			}
			if !reflect.DeepEqual(a.tr, b.tr) {
				t.Errorf("%s/%s: the one-pass decoder and encoding/json give different traces", name, f)
			}
			if a.tr.Events.Len() == 0 {
				t.Errorf("%s: no events", f)
			}
		}
	}
}
