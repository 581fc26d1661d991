package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeListsTheRegistry keeps the README's command table in step with
// the registry that dispatch and help read.
func TestReadmeListsTheRegistry(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, c := range Commands() {
		row := "| `" + c.Name + "` | " + c.Summary + " |"
		if !strings.Contains(readme, row) {
			t.Errorf("README lacks the row %q (regenerate the table from 'tpptrace help')", row)
		}
	}
}

// TestReadmeShowsTheRealOutput keeps the README's sample diagnosis true:
// the block after "$ tpptrace analyze samples/default" is what the command
// prints today (refresh it from 'go run ./cmd/tpptrace analyze samples/default').
func TestReadmeShowsTheRealOutput(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "$ tpptrace analyze samples/default\n")
	want, _, ok2 := strings.Cut(after, "\n```")
	if !ok || !ok2 {
		t.Fatal("README has no sample diagnosis block")
	}
	dir := filepath.Join(t.TempDir(), "default")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "samples", "default"))); err != nil {
		t.Fatal(err)
	}
	code, got, stderr := execCLI(t, "analyze", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.TrimRight(got, "\n") != want {
		t.Errorf("README's sample output is stale; it should read:\n%s", got)
	}
}
