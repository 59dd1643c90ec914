package cli

import (
	"bufio"
	"errors"
	"fmt"
	"path/filepath"
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
	case g.HumanLocal == nil:
		return usageError("--human plays the %s game only", strings.Join(gamesWith(hasHuman), " or "))
	case g.HumanClient == nil && f.against == "":
		return usageError("--human on a server plays the %s game only; the %s game plays with --against NAME", strings.Join(gamesWith(func(g games.Game) bool { return g.HumanClient != nil }), " or "), g.Name)
	case f.json:
		return usageError("--human prints the game for a person: no --json")
	case cmd.Flags().Changed("player") || cmd.Flags().Changed("weights"):
		if f.against == "" {
			return usageError("--human: you are the player; --player and --weights are for the AI, with --against")
		}
	}
	if f.against == "" && (f.revealAI || cmd.Flags().Changed("replays") || f.side != "") {
		return usageError("--reveal-ai, --replays and --side are for games against a built-in AI: add --against NAME (on a server, the server gives the seat)")
	}
	in := bufio.NewReader(e.stdin)
	if f.against != "" {
		return runHumanLocal(cmd, e, f, g, in)
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

// runHumanLocal is kaisen play --human --against: the person against a
// built-in AI in-process, the AI's reasons after each game (during play
// with --reveal-ai, which says so first) and in its replay.
func runHumanLocal(cmd *cobra.Command, e *env, f *playFlags, g games.Game, in *bufio.Reader) error {
	dir := f.replays
	if !cmd.Flags().Changed("replays") {
		data, err := dataDir()
		if err != nil {
			return fmt.Errorf("--against: where to write the replay: %w; or give --replays DIR", err)
		}
		dir = filepath.Join(data, "play")
	}
	if f.revealAI {
		fmt.Fprintf(e.stdout, "--reveal-ai: the AI's reasons are shown during play; they REVEAL ITS FLEET (where its ships can and cannot be). Play without --reveal-ai to be told only what the rules tell you.\n")
	}
	opt := games.HumanOptions{Against: f.against, Load: config.File(f.config), Seed: f.seed, SeedDrawn: !cmd.Flags().Changed("seed"),
		Games: f.connections, Reveal: f.revealAI, Replays: dir, Side: f.side}
	if err := g.HumanLocal(in, e.stdout, opt); err != nil {
		if errors.Is(err, games.ErrHumanReplay) {
			return err // a runtime failure (exit 1)
		}
		return usageError("--against: %w", err)
	}
	return nil
}
