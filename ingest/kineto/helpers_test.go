package kineto

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// writeTrace writes content to dir/name, gzipped when name ends in .gz.
func writeTrace(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	data := []byte(content)
	if filepath.Ext(name) == ".gz" {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(data)
		zw.Close()
		data = b.Bytes()
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// miniTrace is a small new-format trace of one rank: a step, a kernel
// launch, an NCCL send with its annotation.
const miniTrace = `{
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA H100"}, {"id": 1, "name": "NVIDIA H100"}],
  "distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 2,
     "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "ranks": [0, 1]},
                   {"pg_name": "3", "pg_desc": "PIPELINE_MODEL_PARALLEL_GROUP", "ranks": "[0, 1]"}]},
  "host_name": "node7",
  "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#5", "pid": 10, "tid": 10, "ts": 1000.000, "dur": 100.000, "args": {"External id": 1}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 10, "ts": 1001.5, "dur": 10, "args": {"External id": 2}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1002.001, "dur": 2.5, "args": {"External id": 2, "correlation": 77}},
    {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 1, "tid": 7, "ts": 1150.25, "dur": 20.125, "args": {"External id": 2, "device": 1, "stream": 7, "correlation": 77}},
    {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 10, "tid": 10, "ts": 1020, "dur": 30, "args": {"External id": 3, "Collective name": "send", "dtype": "BFloat16", "In msg nelems": 1024, "Out msg nelems": 1024, "Group size": 2, "Process Group Name": "3", "Process Group Description": "PIPELINE_MODEL_PARALLEL_GROUP", "Process Group Ranks": "[0, 1]", "Dst Rank": 0, "Seq": 9}},
    {"ph": "X", "cat": "user_annotation", "name": "nccl:send 1->0", "pid": 10, "tid": 10, "ts": 1021, "dur": 20, "args": {"External id": 4}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernelExC", "pid": 10, "tid": 10, "ts": 1022, "dur": 5, "args": {"External id": 4, "correlation": 78}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", "pid": 1, "tid": 20, "ts": 1200, "dur": 50, "args": {"External id": 3, "device": 1, "stream": 20, "correlation": 78}},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "nccl:send 1->0", "pid": 1, "tid": 20, "ts": 1199.999, "dur": 50.002, "args": {"External id": 4}},
    {"ph": "s", "id": 78, "pid": 10, "tid": 10, "ts": 1022, "cat": "ac2g", "name": "ac2g"},
    {"ph": "f", "id": 78, "pid": 1, "tid": 20, "ts": 1200, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "python_function", "name": "train.py(10): step", "pid": 10, "tid": 10, "ts": 1000, "dur": 1},
    {"name": "thread_name", "ph": "M", "ts": 1000, "pid": 1, "tid": 7, "args": {"name": "stream 7 "}},
    {"name": "thread_name", "ph": "M", "ts": 1000, "pid": 10, "tid": 10, "args": {"name": "thread 10 (pt_main_thread)"}}
  ],
  "baseTimeNanoseconds": 1711964646000000000,
  "traceName": "x"
}`
