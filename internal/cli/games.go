package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/games"
)

// lookupGame is the game a --game value names; any other value is a usage
// error listing the games.
func lookupGame(name string) (games.Game, error) {
	g, err := games.Lookup(name)
	if err != nil {
		return g, usageError("--game %q: %w (games: %s)", name, games.ErrUnknownGame, strings.Join(games.Names(), ", "))
	}
	return g, nil
}

// completeGames completes a --game value from the games registry.
func completeGames(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return games.Names(), cobra.ShellCompDirectiveNoFileComp
}

// gameFlagHelp is the usage text of a --game flag: the games, from the registry.
func gameFlagHelp(what string) string {
	return what + ": " + strings.Join(games.Names(), " or ")
}
