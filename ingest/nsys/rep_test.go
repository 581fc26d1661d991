package nsys

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples/nsysw"
)

func TestRealRepWithoutNsys(t *testing.T) {
	path := shared.Dir(t, "traces", "nsys", "NVIDIA-Fuser_report1.nsys-rep")
	t.Setenv("PATH", t.TempDir())
	err := readErr(t, path)
	want := "nsys export --type sqlite --output " + path + ".sqlite " + path
	wantFileError(t, err, path, want)
	if !strings.Contains(err.Error(), "2025.1.1.110") {
		t.Errorf("the message does not name the report's nsys version: %v", err)
	}
}

// fakeNsys puts on PATH an nsys that copies src to its --output and
// appends a line to the returned log per run.
func fakeNsys(t *testing.T, src string) (log string) {
	t.Helper()
	bin := t.TempDir()
	log = filepath.Join(bin, "runs.log")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\nwhile [ $# -gt 0 ]; do\n  if [ \"$1\" = --output ]; then out=$2; fi\n  shift\ndone\ncp " + src + " \"$out\"\n"
	if err := os.WriteFile(filepath.Join(bin, "nsys"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

func runs(t *testing.T, log string) int {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		return 0
	}
	return strings.Count(string(b), "\n")
}

func TestRepExportedWithNsysAndCached(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log := fakeNsys(t, paths[2])
	rep := filepath.Join(t.TempDir(), "report_rank2.nsys-rep")
	os.WriteFile(rep, []byte("NVIDIA Tegra Profiler Report 2025@1@1@110-1v0.\x00\x01 closed bytes"), 0o644)
	for i := 0; i < 2; i++ {
		tr, err := Read(context.Background(), []string{rep}, source.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Ranks) != 1 || tr.Ranks[0].Rank != 2 || tr.Sources[0].Path != rep || tr.Sources[0].Format != "nsys-rep" {
			t.Fatalf("read %d: ranks %+v sources %+v", i, tr.Ranks, tr.Sources)
		}
	}
	if n := runs(t, log); n != 1 {
		t.Fatalf("nsys ran %d times for an unchanged report, want 1", n)
	}
	os.WriteFile(rep, []byte("NVIDIA Tegra Profiler Report 2025@1@1@110-1v0.\x00\x01 closed bytes, changed"), 0o644)
	if _, err := Read(context.Background(), []string{rep}, source.Options{}); err != nil {
		t.Fatal(err)
	}
	if n := runs(t, log); n != 2 {
		t.Fatalf("nsys ran %d times after the report changed, want 2", n)
	}
	if b, _ := os.ReadFile(log); !strings.Contains(string(b), "export --type sqlite") {
		t.Fatalf("nsys arguments: %s", b)
	}
}

func TestRepHeaderRequired(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fake.nsys-rep")
	os.WriteFile(p, []byte("PK\x03\x04 not a report"), 0o644)
	wantFileError(t, readErr(t, p), p, "not an Nsight Systems report")
}

func TestRepVersion(t *testing.T) {
	if v := repVersion([]byte("NVIDIA Tegra Profiler Report 2026@1@1@204-123v0.")); v != "2026.1.1.204" {
		t.Fatalf("repVersion = %q", v)
	}
}

func FuzzParsePayload(f *testing.F) {
	f.Add(`{"NCCL communicator ID":12345678901234567890,"Message size [bytes]":4096,"Peer rank":3}`)
	f.Add(`{"NCCL communicator ID":"1,234","No. of ranks":8,"Rank":2,"CUDA device":1}`)
	f.Add(`{"Bytes": -5}`)
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := parsePayload(s)
		if !ok && (p.hasComm || p.bytes != -1) {
			t.Fatalf("failed parse filled fields: %+v", p)
		}
	})
}

func TestParsePayload(t *testing.T) {
	p, ok := parsePayload(`{"NCCL communicator ID":12345678901234567890,"Message size [bytes]":4096,"Peer rank":3}`)
	if !ok || !p.hasComm || p.comm != 12345678901234567890 || p.bytes != 4096 || p.peer != 3 || p.rank != -1 {
		t.Fatalf("payload %+v", p)
	}
}
