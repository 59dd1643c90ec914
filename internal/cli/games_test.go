package cli

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/games"
)

// TestEveryGameHasAPlayClient: kaisen play can play every game of the
// registry, and only those.
func TestEveryGameHasAPlayClient(t *testing.T) {
	require.Len(t, playClients, len(games.All()))
	for _, g := range games.All() {
		c, ok := playClients[g.Name]
		require.True(t, ok, g.Name)
		require.NoError(t, g.CheckPlayer(c.defaultPlayer), g.Name)
	}
}

// TestUnknownGameIsRefused: every command with --game refuses a game the
// registry does not list, as a usage error that lists the games, before
// doing anything else.
func TestUnknownGameIsRefused(t *testing.T) {
	for _, args := range [][]string{
		{"play", "--game", "chess", "--addr", "127.0.0.1:1"},
		{"match", "--game", "chess", "-n", "1", "--seed", "1"},
		{"serve", "--game", "chess", "--listen", "127.0.0.1:0"},
	} {
		t.Run(args[0], func(t *testing.T) {
			code, _, stderr := playRun(t, args...)
			require.Equal(t, 2, code)
			require.Contains(t, stderr, `--game "chess": unknown game (games: submarine, battleship)`)
		})
	}
}

// TestGameCompletion: --game completes to the registry's games.
func TestGameCompletion(t *testing.T) {
	for _, name := range []string{"play", "match", "serve"} {
		t.Run(name, func(t *testing.T) {
			code, stdout, _ := playRun(t, cobra.ShellCompRequestCmd, name, "--game", "")
			require.Equal(t, 0, code)
			require.Contains(t, stdout, "submarine\nbattleship\n")
		})
	}
}
