package ingest

import (
	"bytes"
	"path/filepath"
)

// companion tells whether the file at path, whose first bytes are head,
// is one that sits beside traces without being input: the job.json
// (configuration) and truth.json (expected figures) that `tpptrace
// samples gen` writes next to its traces. They are passed over without a
// skip record, so that the generator's own files are not reported as
// skipped input. Both name and content must match: a user's job.json of
// another shape is still reported.
func companion(path string, head []byte) bool {
	switch filepath.Base(path) {
	case "job.json":
		return jsonHasKeys(head, `"tp"`, `"pp"`, `"dp"`, `"microbatches"`)
	case "truth.json":
		return jsonHasKeys(head, `"config"`, `"tp"`, `"pp"`)
	}
	return false
}

// jsonHasKeys: head is a JSON object whose first bytes hold every key.
func jsonHasKeys(head []byte, keys ...string) bool {
	if t := bytes.TrimSpace(head); len(t) == 0 || t[0] != '{' {
		return false
	}
	for _, k := range keys {
		if !bytes.Contains(head, []byte(k+":")) {
			return false
		}
	}
	return true
}
