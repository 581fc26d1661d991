package ncclog

import (
	"context"
	"fmt"
	"os"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// Format is the NCCL_DEBUG=INFO log format for the registry in package ingest.
var Format = source.Format{Name: "nccl-log", About: "NCCL_DEBUG=INFO logs: ranks, hosts, GPUs and communicators",
	Sniff: func(_ string, head []byte) bool { return infoRe.Match(head) }, Read: readLogs}

// readLogs reads the logs on every core, in path order (source.InOrder):
// their trace, warnings and skip records are what a loop over them gives.
func readLogs(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	logs := make([]*Log, 0, len(paths))
	err := source.InOrder(ctx, len(paths), opts.Workers, func(i int) (*Log, error) {
		return readLog(paths[i], opts.MaxMemory)
	}, func(_ int, l *Log) error {
		warnUnknown(l, opts)
		logs = append(logs, l)
		return nil
	})
	if err != nil {
		return nil, err
	}
	t := LogTrace(logs)
	for _, l := range logs {
		for _, v := range l.Unknown {
			t.Skip(l.Path, -1, "", "NCCL version %s is outside 2.%d–2.%d: read with the rules of those versions", v, MinVersion, MaxVersion)
		}
	}
	return t, nil
}

func readLog(p string, maxMem int64) (*Log, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("nccl log: %w", err)
	}
	defer f.Close()
	l, err := parseLog(p, f, maxMem)
	if err != nil {
		return nil, &source.FileError{Path: p, Offset: -1, Err: err}
	}
	return l, nil
}

func warnUnknown(l *Log, opts source.Options) {
	if opts.Warn == nil {
		return
	}
	for _, v := range l.Unknown {
		opts.Warn(fmt.Sprintf("%s: NCCL version %s is outside 2.%d–2.%d; its lines may be misread", l.Path, v, MinVersion, MaxVersion))
	}
}
