package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/protocol"
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
	if f.turnTime < 0 || (f.turnTime > 0 && f.against != "") {
		return usageError("--turn-time is the time per action of a server (--addr): positive, and not with --against, whose AI has no clock")
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
	var late []string // why games were lost without a move of the person's being answered
	opt := games.PlayOptions{Seed: f.seed, ReadTimeout: f.timeout, Log: e.log, OnEnd: f.tally.add, Print: printLine(e),
		OnGame: func(cg client.Game) {
			if why := lostLate(cg); why != "" {
				late = append(late, fmt.Sprintf("game %d: %s", cg.Game+1, why))
			}
		}}
	var out io.Writer = e.stdout
	if f.turnTime > 0 {
		out = turnClock{Writer: e.stdout, d: f.turnTime}
	}
	c, err := g.HumanClient(games.HumanClientOptions{Name: f.name}, in, out)
	if err != nil {
		return usageError("--human: %w", err)
	}
	n, err := playConn(cmd.Context(), *f, c, 0, opt)
	switch {
	case err != nil && cmd.Context().Err() != nil:
		return &ExitError{Code: ExitInterrupted, Err: err}
	case errors.Is(err, client.ErrPlacement):
		return fmt.Errorf("the games stop before game %d: you resigned or your input ended, so there is no fleet to place (%d games played)", n+1, n)
	case err == nil && len(late) > 0:
		return fmt.Errorf("%s; a server for bots gives a placement 30 s and an action 10 s: play on a listener for people (kaisen serve --humans gives 10 minutes an action), or against a built-in AI with --against NAME", strings.Join(late, "; "))
	}
	return err
}

// turnClock is the person's output with the server's time per action
// (--turn-time): the seat shows the time left (human.Deadline).
type turnClock struct {
	io.Writer
	d time.Duration
}

var _ human.Deadline = turnClock{}

// TurnTime implements human.Deadline.
func (t turnClock) TurnTime() time.Duration { return t.d }

// lostLate says why a person lost a game on a server without the server
// saying why ("you lose" alone), "" for any other end: before the game
// started, the placement was late (or refused); right after the person's
// action, before any answer to it, the action was late.
func lostLate(g client.Game) string {
	switch {
	case g.End != protocol.EndLose:
		return ""
	case !g.Started:
		return "lost before it started: the server did not take your placement in time"
	case g.AfterAction:
		return "lost right after your action, before any answer to it: your time for it had run out"
	}
	return ""
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
