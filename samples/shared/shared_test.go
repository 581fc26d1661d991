package shared

import (
	"strings"
	"testing"
)

// TestFindAbsent: Find reports an absent folder as an error naming it
// instead of skipping, so fuzz targets that only draw seeds from it run.
func TestFindAbsent(t *testing.T) {
	p, err := Find("no-such-folder-here")
	if err == nil || !strings.Contains(err.Error(), "no-such-folder-here") || p != "" {
		t.Fatalf("Find of an absent folder = %q, %v", p, err)
	}
}
