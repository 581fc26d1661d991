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
