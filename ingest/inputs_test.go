package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

func TestMissingInputNamesThePath(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "run")
	_, err := Load(context.Background(), []string{missing}, source.Options{})
	if err == nil || err.Error() != missing+": no such file or directory" {
		t.Fatalf("error %q; want %q", err, missing+": no such file or directory")
	}
}

func TestFailedLoadLeavesNoCacheFolder(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "trunc.json")
	os.WriteFile(bad, []byte(`{"traceEvents": [{"ph": "X",`), 0o644)
	if _, err := LoadCached(context.Background(), []string{bad}, source.Options{}, ""); err == nil {
		t.Fatal("a truncated lone trace must fail")
	}
	if _, err := os.Stat(bad + CacheDirName); !os.IsNotExist(err) {
		t.Fatalf("an empty cache folder was left beside the input: %v", err)
	}
}

func TestFailedLoadErrorNamesFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "trunc.json")
	os.WriteFile(bad, []byte(`{"traceEvents": [{"ph": "X",`), 0o644)
	_, err := Load(context.Background(), []string{bad}, source.Options{})
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("error %v does not name the file", err)
	}
}
