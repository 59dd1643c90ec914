package cli

import (
	"bufio"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
)

// runHuman is kaisen play --human: a person in the seat, on a server or
// (--against) against a built-in AI in-process.
func runHuman(cmd *cobra.Command, e *env, f *playFlags, g games.Game) error {
	switch {
	case !f.human:
		return usageError("--against is for --human games")
	case g.HumanClient == nil:
		return usageError("--human plays the %s game only", strings.Join(gamesWith(hasHuman), " or "))
	case f.json:
		return usageError("--human prints the game for a person: no --json")
	case cmd.Flags().Changed("player") || cmd.Flags().Changed("weights"):
		if f.against == "" {
			return usageError("--human: you are the player; --player and --weights are for the AI, with --against")
		}
	}
	in := bufio.NewReader(e.stdin)
	if f.against != "" {
		if err := g.HumanLocal(in, e.stdout, f.against, config.File(f.config), f.seed, f.connections); err != nil {
			return usageError("--against: %w", err)
		}
		return nil
	}
	if f.name == "" {
		f.name = "kaisen-human"
	}
	f.tally = &playTally{Game: g.Name, Player: "human", Addr: f.addr, Seed: f.seed, Ends: []string{}}
	opt := games.PlayOptions{Seed: f.seed, ReadTimeout: f.timeout, Log: e.log, OnEnd: f.tally.add, Print: printLine(e)}
	_, err := playConn(cmd.Context(), *f, g.HumanClient(f.name, in, e.stdout), 0, opt)
	if err != nil && cmd.Context().Err() != nil {
		return &ExitError{Code: ExitInterrupted, Err: err}
	}
	return err
}
