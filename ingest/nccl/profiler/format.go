package profiler

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// Format is the example profiler plugin's format for the registry in
// package ingest.
var Format = source.Format{Name: "nccl-profiler", About: "NCCL example profiler plugin traces: communicators by CommHash",
	Sniff: sniff, Read: readProfiler}

func sniff(_ string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) == 0 || t[0] != '[' {
		return false
	}
	for _, c := range []string{"GROUP_API", "KERNEL_LAUNCH", "COLL", "P2P", "PROXY", "GROUP"} {
		if bytes.Contains(head, []byte(`"cat": "`+c+`"`)) || bytes.Contains(head, []byte(`"cat":"`+c+`"`)) {
			return true
		}
	}
	return false
}

// readProfiler reads the traces on every core and combines their
// communicator memberships and skips in path order (source.InOrder).
func readProfiler(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	var views []nccl.CommView
	var skips []model.Skip
	err := source.InOrder(ctx, len(paths), opts.Workers, func(i int) (fileViews, error) {
		vs, sk, err := readViews(paths[i], opts.MaxMemory)
		return fileViews{vs, sk}, err
	}, func(i int, f fileViews) error {
		for _, s := range f.skips {
			skips = append(skips, model.Skip{Source: paths[i], Offset: s.Line, Unit: "line", Reason: s.Reason, Count: 1})
		}
		views = append(views, f.views...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	t := nccl.ViewsTrace(views, "nccl-profiler", paths)
	t.Skipped = append(t.Skipped, skips...)
	return t, nil
}

// fileViews is one trace's communicator memberships and skipped lines.
type fileViews struct {
	views []nccl.CommView
	skips []nccl.LineSkip
}

// readViews streams one file's communicator memberships (parseViews).
func readViews(p string, maxMem int64) ([]nccl.CommView, []nccl.LineSkip, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, fmt.Errorf("nccl profiler: %w", err)
	}
	defer f.Close()
	vs, sk, err := parseViews(f, profHost(p), maxMem)
	if err != nil {
		return nil, nil, &source.FileError{Path: p, Offset: -1, Err: err}
	}
	return vs, sk, nil
}

// profHost takes the host from NCCL ≤2.26 file names (<prefix>-<host>-<tid>.txt).
func profHost(p string) string {
	parts := strings.Split(strings.TrimSuffix(filepath.Base(p), ".txt"), "-")
	if len(parts) >= 3 && strings.HasSuffix(p, ".txt") {
		return parts[len(parts)-2]
	}
	return ""
}
