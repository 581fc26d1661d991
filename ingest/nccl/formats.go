package nccl

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// Formats are the input formats this package reads, in sniffing order.
var Formats = []source.Format{
	{Name: "flight-recorder", About: "PyTorch NCCL Flight Recorder dumps (pickle or JSON): ranks and process groups",
		Sniff: func(_ string, head []byte) bool { return LooksLikeDump(head) }, Read: readFlightRecorder},
	{Name: "nccl-profiler", About: "NCCL example profiler plugin traces: communicators by CommHash",
		Sniff: sniffProfiler, Read: readProfiler},
	{Name: "nccl-inspector", About: "NCCL Inspector plugin JSON lines: communicators, names, collective records",
		Sniff: sniffInspector, Read: readInspector},
	{Name: "nccl-log", About: "NCCL_DEBUG=INFO logs: ranks, hosts, GPUs and communicators",
		Sniff: func(_ string, head []byte) bool { return infoRe.Match(head) }, Read: readLogs},
}

func sniffProfiler(_ string, head []byte) bool {
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

func sniffInspector(_ string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && (bytes.Contains(head, []byte(`"coll_perf"`)) ||
		bytes.Contains(head, []byte(`"p2p_perf"`)) || bytes.Contains(head, []byte(`"inspector_output_format_version"`)))
}

func readLogs(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	var logs []*Log
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		l, err := readLog(p)
		if err != nil {
			return nil, err
		}
		warnUnknown(l, opts)
		logs = append(logs, l)
	}
	t := LogTrace(logs)
	for _, l := range logs {
		for _, v := range l.Unknown {
			t.Skip(l.Path, -1, "", "NCCL version %s is outside 2.%d–2.%d: read with the rules of those versions", v, MinVersion, MaxVersion)
		}
	}
	return t, nil
}

func readLog(p string) (*Log, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("nccl log: %w", err)
	}
	defer f.Close()
	l, err := ParseLog(p, f)
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

func readProfiler(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	var views []commView
	var skips []model.Skip
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("nccl profiler: %w", err)
		}
		evs, sk, err := ParseProfiler(bytes.NewReader(b))
		if err != nil {
			return nil, &source.FileError{Path: p, Offset: -1, Err: err}
		}
		for _, s := range sk {
			skips = append(skips, model.Skip{Source: p, Offset: s.Line, Unit: "line", Reason: s.Reason, Count: 1})
		}
		views = append(views, profViews(evs, profHost(p))...)
	}
	t := viewsTrace(views, "nccl-profiler", paths)
	t.Skipped = append(t.Skipped, skips...)
	return t, nil
}

// profHost takes the host from NCCL ≤2.26 file names (<prefix>-<host>-<tid>.txt).
func profHost(p string) string {
	parts := strings.Split(strings.TrimSuffix(filepath.Base(p), ".txt"), "-")
	if len(parts) >= 3 && strings.HasSuffix(p, ".txt") {
		return parts[len(parts)-2]
	}
	return ""
}

func readFlightRecorder(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	dumps, skips, err := ReadDumpsSkipping(paths)
	if err != nil {
		return nil, err
	}
	if err := CheckSameJob(dumps); err != nil {
		return nil, err
	}
	t := &model.Trace{}
	for _, s := range skips {
		t.Skip(s.Path, -1, "", "%s", s.Reason)
		if opts.Warn != nil {
			opts.Warn("skipping " + s.Path + ": " + s.Reason)
		}
	}
	for i, d := range dumps {
		t.Sources = append(t.Sources, model.Source{Path: d.Path, Format: "flight-recorder", Version: d.Version})
		t.AddRank(model.Rank{Rank: d.Rank, LocalGPU: -1, Coord: model.UnknownCoord, Source: int32(i)})
		for _, name := range sortedNames(d.Groups) {
			g := d.Groups[name]
			for _, r := range g.Ranks {
				if t.FindRank(r) < 0 {
					t.AddRank(model.Rank{Rank: r, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
				}
			}
			t.AddComm(namedComm(g.Name, g.Name, g.Desc, g.Ranks))
		}
		addFREvents(t, d)
	}
	t.Events.Sort()
	t.Fallback = t.Events.Len() > 0
	return t, nil
}
