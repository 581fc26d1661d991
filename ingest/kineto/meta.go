package kineto

import (
	"encoding/json"
	"strings"
)

// fileMeta is what the top-level keys of a trace file say.
type fileMeta struct {
	rank      int64 // distributedInfo.rank, -1 when absent
	worldSize int64 // distributedInfo.world_size, -1 when absent
	pgs       []pgConfig
	baseNs    int64 // baseTimeNanoseconds, 0 when absent
	host      string
	gpus      map[int64]string // deviceProperties: id -> name
	inexact   bool             // some times had sub-nanosecond digits
}

func newFileMeta() fileMeta { return fileMeta{rank: -1, worldSize: -1, gpus: map[int64]string{}} }

// pgConfig is one distributedInfo.pg_config entry.
type pgConfig struct {
	Name  flexStr `json:"pg_name"`
	Desc  flexStr `json:"pg_desc"`
	Ranks flexStr `json:"ranks"`
	Size  flexInt `json:"pg_size"`
}

type distInfo struct {
	Rank      flexInt    `json:"rank"`
	WorldSize flexInt    `json:"world_size"`
	PGConfig  []pgConfig `json:"pg_config"`
}

type deviceProp struct {
	ID   flexInt `json:"id"`
	Name string  `json:"name"`
}

// meta handles a top-level key other than traceEvents. Malformed metadata
// is recorded and otherwise ignored: the events are still usable.
func (f *fileReader) meta(key string, raw []byte, off int64) error {
	var err error
	switch key {
	case "distributedInfo":
		var d distInfo
		if err = json.Unmarshal(raw, &d); err == nil {
			f.info.rank, f.info.worldSize, f.info.pgs = d.Rank.or(-1), d.WorldSize.or(-1), d.PGConfig
		}
	case "baseTimeNanoseconds":
		var v flexInt
		if err = json.Unmarshal(raw, &v); err == nil {
			f.info.baseNs = v.or(0)
		}
	case "deviceProperties":
		err = f.devicesMeta(raw)
	case "host_name", "hostname":
		var s flexStr
		if err = json.Unmarshal(raw, &s); err == nil {
			f.info.host = strings.TrimSpace(s.S)
			f.clip(&f.info.host, "host name", off)
		}
	}
	if err != nil {
		f.skip("malformed "+key+": "+firstLine(err.Error()), off)
	}
	return nil
}

func (f *fileReader) devicesMeta(raw []byte) error {
	var ds []deviceProp
	if err := json.Unmarshal(raw, &ds); err != nil {
		return err
	}
	for _, d := range ds {
		if d.ID.Set {
			f.info.gpus[d.ID.N] = d.Name
		}
	}
	return nil
}
