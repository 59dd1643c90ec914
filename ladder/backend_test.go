package ladder

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster, if a test started one.
func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// backends are the databases every storage test runs on: SQLite in a temp
// file, and a fresh database in a throwaway PostgreSQL cluster.
var backends = []struct {
	name string
	dsn  func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "ladder.db") }},
	{"postgres", func(t *testing.T) string { return pgtest.DSN(t) }},
}

// forEachBackend runs f on a new, empty database of each backend.
func forEachBackend(t *testing.T, f func(t *testing.T, dsn string)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { f(t, b.dsn(t)) })
	}
}

// openDSN opens dsn, closed at cleanup.
func openDSN(t *testing.T, dsn string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}
