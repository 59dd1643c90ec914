package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/internal/config"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// defaultBattleshipPlayer is the battleship AI of kaisen play without --player.
const defaultBattleshipPlayer = "gridbot"

// runPlayBattleship is kaisen play --game battleship: f.games connections,
// one game each, with a new bsplayers AI seeded from --seed and the game
// number; every end line goes to stdout.
func runPlayBattleship(ctx context.Context, e *env, f playFlags) error {
	r := battleship.DefaultRules()
	factory, err := bsplayers.New(f.player, r, config.File(f.config))
	if err != nil {
		return &UsageError{Err: fmt.Errorf("--player: %w", err)}
	}
	e.log.Info("play battleship", "addr", f.addr, "player", f.player, "seed", f.seed, "connections", f.connections)
	for game := range f.connections {
		g, err := playBattleshipOnce(ctx, f, r, factory(rand.New(rand.NewPCG(f.seed, uint64(game)))), e)
		if err == nil {
			for _, msg := range g.Errors {
				e.log.Warn("server error line", "error", msg)
			}
			e.log.Debug("game over", "game", game+1, "end", g.End.String(), "shots", g.Shots[0], "enemy_shots", g.Shots[1], "first", g.First)
			f.tally.add(g.End)
			f.tally.Connections++
			if !f.json {
				if _, werr := fmt.Fprintln(e.stdout, g.Line); werr != nil {
					err = fmt.Errorf("write output: %w", werr)
				}
			}
		}
		if err != nil {
			if f.connections > 1 {
				err = fmt.Errorf("connection %d of %d: %w", game+1, f.connections, err)
			}
			return finishPlay(e, f, err)
		}
	}
	return finishPlay(e, f, nil)
}

// playBattleshipOnce plays one game on a new connection.
func playBattleshipOnce(ctx context.Context, f playFlags, r *battleship.Rules, p bsplayers.Player, e *env) (client.BattleshipGame, error) {
	d := net.Dialer{Timeout: f.dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", f.addr)
	if err != nil {
		return client.BattleshipGame{}, fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	return client.PlayBattleship(ctx, conn, p, client.BattleshipPlayOptions{Rules: r, ReadTimeout: f.timeout, Log: e.log})
}
