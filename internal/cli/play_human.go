package cli

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/players"
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
	seat := func(r *submarine.Rules, rng *rand.Rand) *human.Seat { return human.New(r, in, e.stdout, rng) }
	if f.against != "" {
		return playHumanLocal(e, f, seat)
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

// playHumanLocal plays one game between the person (seat 0) and the AI
// --against in-process.
func playHumanLocal(e *env, f *playFlags, seat func(*submarine.Rules, *rand.Rand) *human.Seat) error {
	r := submarine.DefaultRules()
	if _, err := players.Lookup(f.against); err != nil {
		return usageError("--against: %w", err)
	}
	fac, err := players.New(f.against, r, config.File(f.config))
	if err != nil {
		return &UsageError{Err: err}
	}
	ai := fac(rand.New(rand.NewPCG(f.seed, 1)))
	fmt.Fprintf(e.stdout, "you (seat 0, acting first) against %s, seed %d\n", f.against, f.seed)
	human.PlayAgainst(r, seat(r, rand.New(rand.NewPCG(f.seed, 0))), ai, 0)
	return nil
}
