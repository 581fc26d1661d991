package cli

import (
	"context"
	"errors"
	"flag"
	"slices"
	"sync"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/kinetow"
	"github.com/tpptrace/tpptrace/tui"
	"github.com/tpptrace/tpptrace/tui/events"
)

// loaderFor parses the tui command's flags and returns its loader.
func loaderFor(t *testing.T, args ...string) tui.Loader {
	t.Helper()
	env, _, _ := testEnv()
	fs := flag.NewFlagSet("tui", flag.ContinueOnError)
	var in inputFlags
	in.register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return tuiLoader(&in, env, fs.Args(), &loadRecord{})
}

// TestTUILoaderReportsRealProgress: reading Kineto traces reports bytes up
// to their total, then every analysis step in order; the events come with
// the Result, each collective member pointing at a communication kernel.
func TestTUILoaderReportsRealProgress(t *testing.T) {
	cfg, _ := samples.Lookup("default")
	job, err := samples.Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := kinetow.WriteDir(dir, job); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var msgs []tui.ProgressMsg
	res, data, err := loaderFor(t, dir)(context.Background(), func(p tui.ProgressMsg) {
		mu.Lock()
		defer mu.Unlock()
		msgs = append(msgs, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	var read, total int64
	var steps []string
	for _, p := range msgs {
		if p.Step != "" {
			steps = append(steps, p.Step)
			if p.Index != len(steps) || p.Steps != len(analysis.Steps) {
				t.Errorf("step %q numbered %d of %d", p.Step, p.Index, p.Steps)
			}
			continue
		}
		read, total = max(read, p.Done), p.Total
	}
	if total <= 0 || read != total {
		t.Errorf("bytes read %d of %d, want all of a known total", read, total)
	}
	var want []string
	for _, s := range analysis.Steps {
		want = append(want, s.Name)
	}
	if !slices.Equal(steps, want) {
		t.Errorf("steps %v, want %v", steps, want)
	}
	checkData(t, res.WorldSize, data)
}

// checkData: one lane per rank; every collective member is a
// communication kernel of its lane, arriving at that kernel's start.
func checkData(t *testing.T, world int, data *events.Data) {
	if data == nil || len(data.Lanes) != world || len(data.Steps) == 0 || len(data.Colls) == 0 {
		t.Fatalf("events: %+v", data)
	}
	for _, c := range data.Colls {
		for _, m := range c.Members {
			l := data.Lane(m.Rank)
			if l.Kind[m.Event] != events.Comm || l.Start[m.Event] != m.ArrivalNs || l.Coll[m.Event] < 0 {
				t.Fatalf("member %+v of %s on %s: kind %s start %d", m, c.Op, c.Comm, l.Kind[m.Event], l.Start[m.Event])
			}
		}
	}
}

// TestTUILoaderStopsWhenCancelled: a cancelled context ends the load with
// context.Canceled, which the command does not report as a failure.
func TestTUILoaderStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := loaderFor(t, "--sample", "default")(ctx, func(tui.ProgressMsg) {})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("load after cancel: %v, want context.Canceled", err)
	}
}
