package kinetow

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// pgConfig is one entry of distributedInfo.pg_config.
type pgConfig struct {
	Name    string  `json:"pg_name"`
	Desc    string  `json:"pg_desc"`
	Backend string  `json:"backend_config"`
	Size    int     `json:"pg_size"`
	Ranks   []int32 `json:"ranks"`
}

type distInfo struct {
	Backend   string     `json:"backend"`
	Rank      int32      `json:"rank"`
	WorldSize int        `json:"world_size"`
	PGCount   int        `json:"pg_count"`
	PGConfig  []pgConfig `json:"pg_config"`
	NCCL      string     `json:"nccl_version"`
}

// header writes the top-level keys before traceEvents.
func header(w *bufio.Writer, job *samples.Job, rank int32) error {
	w.WriteString("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n")
	for i := range job.Config.GPUsPerHost {
		if i > 0 {
			w.WriteString(",\n")
		}
		fmt.Fprintf(w, `    {"id": %d, "name": %q, "totalGlobalMem": 84929347584, "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 132, "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}`, i, job.Config.GPUName)
	}
	di, err := json.Marshal(distributedInfo(job.Trace, rank))
	if err != nil {
		return fmt.Errorf("rank %d: distributedInfo: %w", rank, err)
	}
	w.WriteString("\n  ],\n  \"distributedInfo\": ")
	w.Write(di)
	// host_name is not written by PyTorch itself; jobs add it with
	// prof.add_metadata_json("host_name", socket.gethostname()), as the
	// generated ones do, so that ranks can be placed on hosts.
	hi := job.Trace.FindRank(rank)
	fmt.Fprintf(w, ",\n  \"host_name\": %q", job.Trace.Ranks[hi].Host)
	w.WriteString(",\n  \"record_shapes\": 0,\n  \"profile_memory\": 0,\n  \"with_stack\": 0,\n")
	w.WriteString("  \"cupti_version\": 24,\n  \"cuda_runtime_version\": 12040,\n  \"cuda_driver_version\": 12040,\n")
	_, err = w.WriteString("  \"traceEvents\": [\n")
	return err
}

// distributedInfo lists the process groups rank belongs to, as PyTorch's
// _get_distributed_info does.
func distributedInfo(t *model.Trace, rank int32) distInfo {
	d := distInfo{Backend: "nccl", Rank: rank, WorldSize: len(t.Ranks), NCCL: "2.21.5"}
	for _, c := range t.Comms {
		if !containsRank(c.Members, rank) {
			continue
		}
		d.PGConfig = append(d.PGConfig, pgConfig{Name: c.Name, Desc: c.Desc, Backend: "cuda:nccl", Size: len(c.Members), Ranks: c.Members})
	}
	d.PGCount = len(d.PGConfig)
	return d
}

func containsRank(m []int32, r int32) bool {
	for _, x := range m {
		if x == r {
			return true
		}
	}
	return false
}

// footer closes traceEvents and writes the trailing keys.
func footer(w *bufio.Writer, rank int32) error {
	fmt.Fprintf(w, "\n  ],\n  \"traceName\": \"/tmp/traces/%s\",\n", strings.TrimSuffix(FileName(int(rank)), ".gz"))
	fmt.Fprintf(w, "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": %d\n}\n", samples.BaseTimeNs)
	return nil
}
