package cli

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/games"
)

// TestEveryGameHasAPlayClient: kaisen play can play every game of the
// registry with its default AI, and refuses an unknown AI as a usage error.
func TestEveryGameHasAPlayClient(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			_, err := g.NewClient(games.ClientOptions{Player: g.PlayDefault})
			if g.Unserved != "" {
				require.ErrorContains(t, err, g.Unserved)
				code, _, stderr := playRun(t, "play", "--game", g.Name, "--addr", "127.0.0.1:1")
				require.Equal(t, 2, code)
				require.Contains(t, stderr, g.Unserved)
				return
			}
			require.NoError(t, err)
			code, _, stderr := playRun(t, "play", "--game", g.Name, "--player", "deepblue", "--addr", "127.0.0.1:1")
			require.Equal(t, 2, code)
			require.Contains(t, stderr, "deepblue")
		})
	}
}

// TestToolsRefuseOtherGames: a command written for some games refuses a
// config of another game with a usage error naming the games it plays.
func TestToolsRefuseOtherGames(t *testing.T) {
	for _, tt := range []struct {
		tool games.Tool
		game string
	}{
		{games.ToolTournament, "battleship"},
		{games.ToolLoadtest, "abilities"},
		{games.ToolTournament, "submarine"},
	} {
		cfg := arena.DefaultConfig()
		cfg.Game = tt.game
		err := checkTool(tt.tool, "x.yaml", cfg)
		if slices.Contains(games.With(tt.tool), tt.game) {
			require.NoError(t, err)
			continue
		}
		var ue *UsageError
		require.ErrorAs(t, err, &ue)
		require.ErrorContains(t, err, fmt.Sprintf(`--rules x.yaml is a %q config; this command plays the %s game only`, tt.game, strings.Join(games.With(tt.tool), " or ")))
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
			require.Contains(t, stderr, `--game "chess": unknown game (games: submarine, battleship, abilities)`)
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
