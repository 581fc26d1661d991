package inspector

import (
	"bytes"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// Format is the NCCL Inspector format for the registry in package ingest.
var Format = source.Format{Name: "nccl-inspector", About: "NCCL Inspector plugin JSON lines: communicators, names, collective records",
	Sniff: sniff, Read: readInspector}

func sniff(_ string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && (bytes.Contains(head, []byte(`"coll_perf"`)) ||
		bytes.Contains(head, []byte(`"p2p_perf"`)) || bytes.Contains(head, []byte(`"inspector_output_format_version"`)))
}
