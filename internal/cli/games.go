package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/spell"
)

// lookupGame is the game a --game value names; any other value is a usage
// error listing the games.
func lookupGame(name string) (games.Game, error) {
	g, err := games.Lookup(name)
	if err != nil {
		return g, usageError("--game %q: %w%s (games: %s)", name, games.ErrUnknownGame, spell.DidYouMean(name, games.Names()), strings.Join(games.Names(), ", "))
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

// gamesWith lists the games of the registry that have a capability.
func gamesWith(has func(games.Game) bool) []string {
	var out []string
	for _, g := range games.All() {
		if has(g) {
			out = append(out, g.Name)
		}
	}
	return out
}

// anyGame is true of every game (completePlayers).
func anyGame(games.Game) bool { return true }

// hasTool is true of the games that list tool t.
func hasTool(t games.Tool) func(games.Game) bool {
	return func(g games.Game) bool { return g.Has(t) }
}

// hasHuman is true of the games with a human seat (kaisen play --human).
func hasHuman(g games.Game) bool { return g.HumanLocal != nil }

// checkTool refuses a match config (loaded from path) of a game that tool
// does not play, as a usage error that names the games it plays.
func checkTool(t games.Tool, path string, cfg arena.Config) error {
	if g, err := games.Lookup(cfg.Game); err == nil && g.Has(t) {
		return nil
	}
	return usageError("--rules %s is a %q config; this command plays the %s game only", path, cfg.Game, strings.Join(games.With(t), " or "))
}
