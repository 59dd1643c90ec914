package extern_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/extern"
)

// TestStartersThroughExec: the starter bots of bots/ (docs/bots.md) play
// through exec: as a bot author runs them, without a forfeit. python3 is
// needed, as bots/'s own test needs it (scripts/install-test-deps.sh).
func TestStartersThroughExec(t *testing.T) {
	py, err := exec.LookPath("python3")
	require.NoError(t, err, "python3 is missing: scripts/install-test-deps.sh installs it (Debian's python3)")
	gostarter := filepath.Join(t.TempDir(), "gostarter")
	out, err := exec.Command("go", "build", "-o", gostarter, "../bots/gostarter").CombinedOutput()
	require.NoError(t, err, "%s", out)
	tests := []struct {
		name, game, dialect, spec, house string
	}{
		{"python submarine classic", "submarine", "", py + " ../bots/python/submarine.py {host} {port} --seed {seed}", "random"},
		{"python submarine-py", "submarine", "submarine-py", py + " ../bots/python/submarine.py {host} {port} --seed {seed}", "random"},
		{"python battleship", "battleship", "", py + " ../bots/python/battleship.py {host} {port} --seed {seed}", "bs-random"},
		{"go submarine", "submarine", "", gostarter + " --addr {host}:{port} --seed {seed}", "random"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fam := &extern.Family{Name: tt.game, Dialect: tt.dialect, Bot: mustParse(t, extern.Prefix+tt.spec), House: tt.house}
			m := arena.Match{Family: fam, Games: 10, Seed: 9, Workers: 2}
			sum, err := m.Run(context.Background(), nil)
			require.NoError(t, err)
			require.Equal(t, 10, sum.Games)
			require.Zero(t, sum.P1Forfeits+sum.P2Forfeits)
			require.Positive(t, sum.Actions)
			requireNoSurvivor(t)
		})
	}
}
