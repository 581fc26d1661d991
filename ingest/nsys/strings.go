package nsys

import (
	"regexp"
	"strings"
)

// maxStringID bounds the StringIds table kept as a slice; larger ids are
// corrupt or hostile and resolve to "".
const maxStringID = 1 << 26

// stringTable is StringIds, indexed by id.
type stringTable []string

func readStrings(d *db) (stringTable, error) {
	var t stringTable
	if !d.has("StringIds", "id", "value") {
		return t, nil
	}
	err := d.readTable("StringIds", []string{"id", "value"}, func(s row) {
		id := s.ColumnInt64(0)
		if id < 0 || id >= maxStringID {
			return
		}
		for int64(len(t)) <= id {
			t = append(t, "")
		}
		t[id] = s.ColumnText(1)
	})
	return t, err
}

func (t stringTable) get(id int64) string {
	if id < 0 || id >= int64(len(t)) {
		return ""
	}
	return t[id]
}

var apiVersion = regexp.MustCompile(`_v\d+$`)

// runtimeName drops the ABI version suffix: cudaLaunchKernel_v7000 -> cudaLaunchKernel.
func runtimeName(s string) string {
	if !strings.Contains(s, "_v") {
		return s
	}
	return apiVersion.ReplaceAllString(s, "")
}
