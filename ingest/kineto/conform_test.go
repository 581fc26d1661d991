package kineto

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// independentCounts decodes a file with encoding/json and counts the
// complete events per kind, without any of the reader's code.
func independentCounts(t *testing.T, path string) (int64, map[model.Kind]int) {
	t.Helper()
	var doc map[string]any
	decodeJSON(t, path, &doc)
	comm := regexp.MustCompile(`(?i)^(nccl|rccl)|ncclKernel|ncclDevKernel`)
	byCat := map[string]model.Kind{"kernel": model.KindCompute, "gpu_memcpy": model.KindMemcpy, "gpu_memset": model.KindMemset,
		"cpu_op": model.KindCPUOp, "user_annotation": model.KindAnnotation, "gpu_user_annotation": model.KindGPUAnnotation,
		"cuda_runtime": model.KindRuntime, "cuda_driver": model.KindRuntime}
	counts := map[model.Kind]int{}
	for _, x := range doc["traceEvents"].([]any) {
		e := x.(map[string]any)
		cat, _ := e["cat"].(string)
		k, ok := byCat[cat]
		if e["ph"] != "X" || !ok {
			continue
		}
		if k == model.KindCompute && comm.MatchString(e["name"].(string)) {
			k = model.KindComm
		}
		counts[k]++
	}
	rank := int64(-1)
	if di, ok := doc["distributedInfo"].(map[string]any); ok {
		rank = int64(di["rank"].(float64))
	}
	return rank, counts
}

// decodeJSON decodes a .json or .json.gz file with encoding/json.
func decodeJSON(t *testing.T, path string, v any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := json.NewDecoder(r).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func TestSharedTracesMatchIndependentCount(t *testing.T) {
	for name, files := range traceSets(t) {
		t.Run(name, func(t *testing.T) {
			tr, err := Read(context.Background(), files, source.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.Validate(); err != nil {
				t.Fatalf("trace does not validate: %v", err)
			}
			if len(tr.Ranks) != len(files) {
				t.Errorf("%d ranks from %d files", len(tr.Ranks), len(files))
			}
			for _, f := range files {
				rank, want := independentCounts(t, f)
				got := countsOfRank(tr, int32(rank))
				for _, k := range model.Kinds() {
					if got[k] != want[k] {
						t.Errorf("%s rank %d: %s events = %d, want %d", f, rank, k, got[k], want[k])
					}
				}
			}
		})
	}
}

func countsOfRank(tr *model.Trace, r int32) map[model.Kind]int {
	lo, hi := tr.Events.RankRange(r)
	m := map[model.Kind]int{}
	for i := lo; i < hi; i++ {
		m[tr.Events.Kind[i]]++
	}
	return m
}
