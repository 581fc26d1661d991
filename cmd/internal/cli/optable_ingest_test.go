package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/samples/shared"
)

// TestIngestOpTable: ingest recognises a published op table, stores it as
// a dataset, and whatif and analyze read the dataset to the same replay as
// the file itself.
func TestIngestOpTable(t *testing.T) {
	file := filepath.Join(shared.Dir(t, "traces", "bytedance_ST"), "trace-ST.parquet")
	ds := filepath.Join(t.TempDir(), "ds")
	code, out, stderr := execCLI(t, "ingest", "-o", ds, file)
	if code != ExitOK || !strings.Contains(out, "8 workers, 32 steps") {
		t.Fatalf("ingest: exit %d, %q %s", code, out, stderr)
	}
	var fromFile, fromDS result.Result
	for _, c := range []struct {
		in  string
		res *result.Result
	}{{file, &fromFile}, {ds, &fromDS}} {
		code, out, stderr := execCLI(t, "analyze", "--whatif", "--json", c.in)
		if code != ExitOK {
			t.Fatalf("analyze %s: exit %d: %s", c.in, code, stderr)
		}
		if err := json.Unmarshal([]byte(out), c.res); err != nil || c.res.WhatIf == nil {
			t.Fatalf("analyze %s: %v, what-if %v", c.in, err, c.res.WhatIf)
		}
	}
	if fromDS.WhatIf.NoDelayStepNs != fromFile.WhatIf.NoDelayStepNs || fromDS.WhatIf.NoDelayStepNs == 0 {
		t.Errorf("T_ori from the dataset %d, from the file %d", fromDS.WhatIf.NoDelayStepNs, fromFile.WhatIf.NoDelayStepNs)
	}
}
