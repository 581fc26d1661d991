package gunzip

import (
	"testing"

	"github.com/tpptrace/tpptrace/samples/fuzzmain"
)

// TestMain gives fuzzing a short minimisation budget (samples/fuzzmain).
func TestMain(m *testing.M) { fuzzmain.Run(m) }
