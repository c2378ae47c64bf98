package sortkeytest

import (
	"context"
	"testing"

	"github.com/sortkeydb/sortkey/internal/dataio"
)

// Load creates the tables and items of a fixture folder (sortkey dump's
// tables.json and data files, the folder sortkey serve --seed loads) on
// the server, and fails the test if it cannot: a failed load leaves none
// of its tables behind.
func (s *Server) Load(tb testing.TB, dir string) {
	tb.Helper()
	if _, err := dataio.Load(context.Background(), s.Client(), dir, dataio.LoadOptions{}); err != nil {
		tb.Fatalf("sortkeytest: load %s: %v", dir, err)
	}
}
