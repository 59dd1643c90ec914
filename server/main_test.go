package server

import (
	"os"
	"testing"

	"github.com/kaisen-ai/kaisen/internal/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster the rated-ladder tests
// may have started.
func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}
