package ingest_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/ncclw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// writeNCCLBeside writes the files of the NCCL formats beside a job that
// the generator has no writer for, into dir/<format>: "flight-recorder"
// (one JSON dump per rank, untimed), "flight-recorder-timed" (the same
// with duration_ms: events), "nccl-profiler" (one example profiler trace
// per process); ok is false for another name.
func writeNCCLBeside(t *testing.T, dir string, job *samples.Job, format string) bool {
	t.Helper()
	switch format {
	case "flight-recorder", "flight-recorder-timed":
		writeFRDumps(t, filepath.Join(dir, format), job, format == "flight-recorder-timed")
	case "nccl-profiler":
		writeProfilerTraces(t, filepath.Join(dir, format), job)
	default:
		return false
	}
	return true
}

// writeFRDumps writes one Flight Recorder JSON dump per rank of the job,
// rank_<r>.json: the default process group and every communicator of the
// rank as process groups, and a few collectives on the default group,
// with their durations when timed.
func writeFRDumps(t *testing.T, dir string, job *samples.Job, timed bool) {
	t.Helper()
	mkdir(t, dir)
	for _, r := range job.Trace.Ranks {
		d := jobFRDump(job.Trace, r.Rank, timed)
		writeFile(t, filepath.Join(dir, fmt.Sprintf("rank_%d.json", r.Rank)), func(w io.Writer) { writeFRJSON(w, d) })
	}
}

// jobFRDump is rank's dump of a job of trace t's ranks and communicators.
func jobFRDump(t *model.Trace, rank int32, timed bool) map[string]any {
	all := make([]int32, len(t.Ranks))
	for i, r := range t.Ranks {
		all[i] = r.Rank
	}
	groups := map[string]any{"0": map[string]any{"name": "0", "desc": "default_pg", "ranks": rankList(all)}}
	for i, c := range t.Comms {
		if slices.Contains(c.Members, rank) {
			groups[fmt.Sprint(i+1)] = map[string]any{"name": c.ID, "desc": c.Desc, "ranks": rankList(c.Members)}
		}
	}
	entries := make([]any, 3)
	for i := range entries {
		e := frEntry(i)
		e["frames"] = []any{}
		if !timed {
			delete(e, "duration_ms")
		}
		entries[i] = e
	}
	return map[string]any{"version": "2.9", "comm_lib_version": "2.21.5", "entries": entries, "pg_config": groups,
		"pg_status": map[string]any{"0": map[string]any{"last_enqueued_collective": int64(3), "last_started_collective": int64(3), "last_completed_collective": int64(3)}}}
}

// writeFRJSON writes a dump as JSON, its entries last (as PyTorch writes
// them, so that the sniffer sees pg_config first).
func writeFRJSON(w io.Writer, d map[string]any) {
	entries := d["entries"]
	delete(d, "entries")
	head, _ := jsonMarshal(d)
	body, _ := jsonMarshal(entries)
	fmt.Fprintf(w, `%s, "entries": %s}`, head[:len(head)-1], body)
}

// rankList is ranks as a dump's pg_config lists them: "[0, 1, 2]".
func rankList(ranks []int32) string {
	s := make([]string, len(ranks))
	for i, r := range ranks {
		s[i] = fmt.Sprint(r)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// writeProfilerTraces writes one example profiler trace per rank,
// nccl_profile-<host>-<pid>.txt, with one COLL begin per communicator of
// the rank (its CommHash and the rank's index in it).
func writeProfilerTraces(t *testing.T, dir string, job *samples.Job) {
	t.Helper()
	mkdir(t, dir)
	for _, r := range job.Trace.Ranks {
		name := fmt.Sprintf("nccl_profile-%s-%d.txt", r.Host, r.PID)
		writeFile(t, filepath.Join(dir, name), func(w io.Writer) { writeProfilerTrace(w, job.Trace, r) })
	}
}

// writeProfilerTrace writes rank r's trace: a COLL begin per communicator
// of r.
func writeProfilerTrace(w io.Writer, t *model.Trace, r model.Rank) {
	fmt.Fprintln(w, "[")
	for id, c := range t.Comms {
		if i := slices.Index(c.Members, r.Rank); i >= 0 {
			fmt.Fprintf(w, `{"name": "AllReduce", "cat": "COLL", "ph": "b", "id": %d, "pid": %d, "tid": 1, "ts": %d.5, "args": {"CommHash": %d, "Rank": %d, "Count": 8, "Datatype": "ncclFloat32"}},`+"\n",
				id, r.PID, id, ncclw.CommHash(c.ID), i)
		}
	}
	fmt.Fprintln(w, "{}]")
}

// mkdir makes dir and its parents.
func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestBesideEventsWhole: Flight Recorder dumps with timed entries and
// verbose Inspector records hold events (a Fallback part), which Merge
// keeps for a rank without a timeline. Beside Kineto traces of every rank
// but rank 5, or a dataset or a sharded dataset of those, they leave the
// inputs to the whole read: LoadRankedCold (having read the shards), and
// LoadRanked and LoadRankedCaching (parsing the files beside, then from
// the entry of their parse) say ok false, with no cache entry of the
// traces written and nothing warned of (the whole read warns). With
// every rank's trace they are read rank by rank (TestColdRankedEqualsWhole,
// TestDatasetBesideRanked, TestShardedBesideRanked).
func TestBesideEventsWhole(t *testing.T) {
	for _, format := range []string{"flight-recorder-timed", "nccl-inspector-verbose"} {
		t.Run(format, func(t *testing.T) {
			dir := coldJob(t, "default", "", nil, format)
			if err := os.Remove(filepath.Join(dir, "rank-5.pt.trace.json.gz")); err != nil {
				t.Fatal(err)
			}
			if !keepsFallback(t, dir, 5) || !dropsFallback(t, dir) {
				t.Fatalf("the whole read of Kineto traces but rank 5's with %s beside kept no events of rank 5 or dropped none of the others", format)
			}
			traces, _ := filepath.Glob(filepath.Join(dir, "rank-*.pt.trace.json.gz"))
			os.WriteFile(filepath.Join(dir, "rank-99.trace.json"), []byte("not a trace"), 0o644)
			var warned sampletest.Warnings
			cache := t.TempDir()
			opts := source.Options{Warn: warned.Add}
			if _, ok, err := ingest.LoadRankedCold(context.Background(), []string{dir}, opts, cache, 1, nil); ok || err != nil {
				t.Fatalf("Kineto traces with %s beside were read rank by rank (%v)", format, err)
			}
			if left, _ := filepath.Glob(filepath.Join(cache, "*", "*")); len(left) > 0 || len(warned.Msgs()) > 0 {
				t.Errorf("falling back left %q in the cache and warned %q", left, warned.Msgs())
			}
			beside := []string{filepath.Join(dir, format), filepath.Join(dir, "rank-99.trace.json")}
			for _, ds := range []string{shardedOf(t, traces), datasetOf(t, traces)} {
				inputs := append([]string{ds}, beside...)
				if _, ok, err := ingest.LoadRanked(inputs, opts, 0, nil); ok || err != nil {
					t.Errorf("%s with %s beside was read rank by rank (%v)", filepath.Base(ds), format, err)
				}
				cache := t.TempDir()
				for i := range 2 { // parsing the files beside, then from the entry of their parse
					before := ingest.BesideParses()
					if _, ok, err := cachingRead(inputs, opts, cache); ok || err != nil {
						t.Errorf("%s with %s beside was read rank by rank, caching (%d, %v)", filepath.Base(ds), format, i, err)
					}
					if parsed := ingest.BesideParses() - before; parsed > 0 != (i == 0) {
						t.Errorf("%s, caching read %d: %d groups parsed", filepath.Base(ds), i, parsed)
					}
				}
			}
			if len(warned.Msgs()) > 0 {
				t.Errorf("the reads that fell back warned %q", warned.Msgs())
			}
		})
	}
}

// keepsFallback reports whether the whole read of dir has events of rank.
func keepsFallback(t *testing.T, dir string, rank int32) bool {
	t.Helper()
	tr, err := ingest.Load(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := tr.Events.RankRange(rank)
	return hi > lo
}

// shardedOf ingests the trace files as a sharded dataset of one shard.
func shardedOf(t *testing.T, files []string) string {
	t.Helper()
	ds := filepath.Join(t.TempDir(), "sharded")
	if _, err := ingest.IngestShard(context.Background(), files, source.Options{}, 0, 1, ds, dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	return ds
}

// datasetOf writes the whole read of the trace files as a dataset.
func datasetOf(t *testing.T, files []string) string {
	t.Helper()
	tr, err := ingest.Load(context.Background(), files, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(t.TempDir(), "dataset")
	if err := dataset.Write(ds, tr, dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	return ds
}

// dropsFallback reports whether the whole read of dir has a skip record of
// Fallback events that the traces made redundant.
func dropsFallback(t *testing.T, dir string) bool {
	t.Helper()
	tr, err := ingest.Load(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tr.Skipped {
		if strings.Contains(s.Reason, "collective timings of") && s.Count > 0 {
			return true
		}
	}
	return false
}
