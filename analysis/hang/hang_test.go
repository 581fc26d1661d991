package hang

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/flightrec"
	"github.com/tpptrace/tpptrace/model"
	hangtext "github.com/tpptrace/tpptrace/report/hang"
	"github.com/tpptrace/tpptrace/samples/shared"
)

func readDumps(t *testing.T, dir string) []*model.FRDump {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "_dump_*"))
	var out []*model.FRDump
	for _, p := range paths {
		d, err := flightrec.ReadDump(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

func TestHangMatchesReferenceOutput(t *testing.T) {
	for _, sc := range []string{"gpu_error_1st", "lock_gil_1st"} {
		t.Run(sc, func(t *testing.T) {
			dir := shared.FRDumps(t, sc)
			rep, err := Diagnose(readDumps(t, dir))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := hangtext.WriteAttribution(&got, rep); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "reference_output.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				var all bytes.Buffer
				hangtext.WriteFindings(&all, rep)
				t.Errorf("got\n%q\nwant\n%q\nfindings:\n%s", got.String(), want, all.String())
			}
		})
	}
}
