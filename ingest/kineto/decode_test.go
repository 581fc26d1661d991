package kineto

import (
	"context"
	"reflect"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestDecodersAgree reads every shared trace with goccy/go-json and with
// encoding/json and requires identical traces.
func TestDecodersAgree(t *testing.T) {
	for name, files := range traceSets(t) {
		for _, f := range files {
			prog := newProgress(nil, nil)
			a := readFileWith(context.Background(), f, source.Options{}, false, prog, goccyDecoder{}, newRankIntern())
			b := readFileWith(context.Background(), f, source.Options{}, false, prog, stdDecoder{}, newRankIntern())
			if a.err != nil || b.err != nil {
				t.Fatalf("%s: goccy err %v, std err %v", f, a.err, b.err)
			}
			if !reflect.DeepEqual(a.tr, b.tr) {
				t.Errorf("%s/%s: goccy and encoding/json give different traces", name, f)
			}
			if a.tr.Events.Len() == 0 {
				t.Errorf("%s: no events", f)
			}
		}
	}
}
