package nsys

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/ncruces/go-sqlite3"
)

// rankEnv are the only captured environment variables tpptrace reads; the
// rest of the target's environment is never copied anywhere.
var rankEnv = []string{"RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "WORLD_SIZE", "LOCAL_RANK"}

// meta is what a report says about itself and its host.
type meta struct {
	version    string             // EXPORT_PRODUCT_VERSION, e.g. 2025.1.1.110
	schema     string             // EXPORT_SCHEMA_VERSION, e.g. 3.17.1
	normalized bool               // EXPORT_PARAM_TIME_NORMALIZE: times are already epoch ns
	sessionNs  int64              // TARGET_INFO_SESSION_START_TIME.utcEpochNs
	host       string             // TARGET_INFO_SYSTEM_ENV Hostname
	env        map[string]string  // rankEnv values found in META_DATA_CAPTURE
	gpus       map[int64]gpuInfo  // by TARGET_INFO_GPU.id
	cudaDev    map[[2]int64]int64 // (pid, cudaId) -> gpuId
}

type gpuInfo struct{ name, uuid, bus string }

func readMeta(d *db) (meta, error) {
	m := meta{env: map[string]string{}, gpus: map[int64]gpuInfo{}, cudaDev: map[[2]int64]int64{}}
	steps := []func(*db, *meta) error{readExportMeta, readSession, readHost, readCaptureEnv, readGPUs, readCUDADevices}
	for _, f := range steps {
		if err := f(d, &m); err != nil {
			return m, err
		}
	}
	return m, nil
}

func readExportMeta(d *db, m *meta) error {
	if !d.has("META_DATA_EXPORT", "name", "value") {
		return nil
	}
	return d.readTable("META_DATA_EXPORT", []string{"name", "value"}, func(s row) {
		switch v := s.ColumnText(1); s.ColumnText(0) {
		case "EXPORT_PRODUCT_VERSION":
			m.version = v
		case "EXPORT_SCHEMA_VERSION":
			m.schema = v
		case "EXPORT_PARAM_TIME_NORMALIZE":
			m.normalized = v == "true"
		}
	})
}

func readSession(d *db, m *meta) error {
	if !d.has("TARGET_INFO_SESSION_START_TIME", "utcEpochNs") {
		return nil
	}
	first := true // LIMIT 1
	return d.readTable("TARGET_INFO_SESSION_START_TIME", []string{"utcEpochNs"}, func(s row) {
		if first {
			m.sessionNs, first = s.ColumnInt64(0), false
		}
	})
}

func readHost(d *db, m *meta) error {
	if !d.has("TARGET_INFO_SYSTEM_ENV", "name", "value") {
		return nil
	}
	found := false // WHERE name = 'Hostname' LIMIT 1
	return d.readTable("TARGET_INFO_SYSTEM_ENV", []string{"name", "value"}, func(s row) {
		if !found && s.ColumnType(0) == sqlite3.TEXT && string(s.ColumnRawText(0)) == "Hostname" {
			m.host, found = s.ColumnText(1), true
		}
	})
}

// readCaptureEnv keeps only the rankEnv variables of the launched process.
func readCaptureEnv(d *db, m *meta) error {
	if !d.has("META_DATA_CAPTURE", "name", "value") {
		return nil
	}
	return d.readTable("META_DATA_CAPTURE", []string{"name", "value"}, func(s row) {
		if !envVarRow(s) {
			return
		}
		k, v, ok := strings.Cut(s.ColumnText(1), "=")
		if !ok || !isRankEnv(k) {
			return
		}
		if u, err := strconv.Unquote(v); err == nil {
			v = u
		}
		if _, seen := m.env[k]; !seen {
			m.env[k] = v
		}
	})
}

// envVarRow is the query's WHERE name LIKE '%:ENVIRONMENT_VARIABLE', for
// a row whose column 0 is name: a number never matches, and SQLite's LIKE
// matches no blob.
func envVarRow(s row) bool { return s.ColumnType(0) == sqlite3.TEXT && likeEnvVar(s.ColumnRawText(0)) }

// likeEnvVar is SQLite's name LIKE '%:ENVIRONMENT_VARIABLE' for a text:
// ASCII case folded, _ one character (a lead byte and its continuation
// bytes, or one stray byte, as SQLite reads UTF-8), the text read up to a
// NUL.
func likeEnvVar(b []byte) bool {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	const pre, post = ":ENVIRONMENT", "VARIABLE"
	if len(b) < len(pre)+1+len(post) || !foldEqual(b[len(b)-len(post):], post) {
		return false
	}
	b = b[:len(b)-len(post)]
	j := len(b) - 1
	for j > 0 && b[j]&0xC0 == 0x80 {
		j--
	}
	if b[j] < 0xC0 {
		j = len(b) - 1 // an ASCII byte, or a stray continuation byte, is one character
	}
	return j >= len(pre) && foldEqual(b[j-len(pre):j], pre)
}

func isRankEnv(k string) bool {
	for _, x := range rankEnv {
		if x == k {
			return true
		}
	}
	return false
}

func readGPUs(d *db, m *meta) error {
	if !d.has("TARGET_INFO_GPU", "id", "name", "busLocation", "uuid") {
		return nil
	}
	return d.readTable("TARGET_INFO_GPU", []string{"id", "name", "busLocation", "uuid"}, func(s row) {
		m.gpus[s.ColumnInt64(0)] = gpuInfo{s.ColumnText(1), s.ColumnText(3), s.ColumnText(2)}
	})
}

func readCUDADevices(d *db, m *meta) error {
	if !d.has("TARGET_INFO_CUDA_DEVICE", "gpuId", "cudaId", "pid") {
		return nil
	}
	return d.readTable("TARGET_INFO_CUDA_DEVICE", []string{"pid", "cudaId", "gpuId"}, func(s row) {
		m.cudaDev[[2]int64{s.ColumnInt64(0), s.ColumnInt64(1)}] = s.ColumnInt64(2)
	})
}

// envRank is the global rank the captured environment names, or -1.
func (m *meta) envRank() int32 {
	for _, k := range []string{"RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK"} {
		if n, err := strconv.ParseInt(m.env[k], 10, 32); err == nil && n >= 0 {
			return int32(n)
		}
	}
	return -1
}
