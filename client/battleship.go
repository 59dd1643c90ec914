package client

// The battleship client: PlayBattleship connects one battleship AI (package
// bsplayers) to a Kaisen battleship server and plays one game;
// PlayBattleshipSeries plays whatever the server offers, one game or a
// series.

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"time"

	"github.com/kaisen-ai/kaisen/game/battleship"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/protocol"
)

// BattleshipPlayOptions configures PlayBattleship. The zero value plays the
// classic rules with the default timeouts.
type BattleshipPlayOptions struct {
	// Rules of the game (nil = battleship.DefaultRules()).
	Rules *battleship.Rules
	// ReadTimeout bounds each read (0 = DefaultPlayReadTimeout, < 0 = none).
	ReadTimeout time.Duration
	// WriteTimeout bounds each write (0 = DefaultPlayWriteTimeout, < 0 = none).
	WriteTimeout time.Duration
	// MaxLine is the longest line accepted (0 = protocol.DefaultMaxLine).
	MaxLine int
	// Log receives one debug record per line sent and received (nil = none).
	Log *slog.Logger
	// OnGame, when set, is called by PlayBattleshipSeries as soon as each
	// game ends.
	OnGame func(BattleshipGame)
}

// BattleshipGame is how one battleship game went for the client.
type BattleshipGame struct {
	Game  int          // index of the game on this connection (from 0), the argument of rngFor
	Round int          // series round from the greeting (0 outside a series)
	End   protocol.End // how it ended for this client
	Line  string       // the end line exactly as the server sent it
	Last  bool         // the end line had the series' final "."
	First bool         // this client shot first
	Shots [2]int       // shots fired by this client [0] and by the opponent [1]
	// Errors lists the messages of the {"error":...} lines the server sent
	// (why this client forfeited).
	Errors []string
}

// PlayBattleship plays one game of the Kaisen battleship protocol on conn
// with player p (rng is not used by PlayBattleship itself; p owns its
// randomness): it reads the greeting, sends p's placement, answers every
// "your turn" with p's shot, reads the result line after each "your turn"
// and "waiting", tells p every result (Repeat and Again are worked out from
// the shots seen), and returns at the end line. A series greeting
// ("round1.") is an error: PlayBattleshipSeries plays series. A malformed or
// unexpected line is an error wrapping a *protocol.ProtocolError. Cancelling
// ctx closes conn; PlayBattleship leaves conn open otherwise.
func PlayBattleship(ctx context.Context, conn net.Conn, p bsplayers.Player, opts BattleshipPlayOptions) (BattleshipGame, error) {
	var g BattleshipGame
	err := playFleet(ctx, conn, opts, "battleship", func(c *client, r *battleship.Rules) error {
		line, err := c.read("greeting")
		if err != nil {
			return err
		}
		if string(line) != bswire.Greeting {
			return protocol.NewProtocolError(line, fmt.Errorf("%w: want the greeting %q (a series greeting needs PlayBattleshipSeries)", protocol.ErrUnexpected, bswire.Greeting))
		}
		g, err = c.battleship(r, p)
		return err
	})
	return g, err
}

// BattleshipSeries is every game PlayBattleshipSeries played on one
// connection.
type BattleshipSeries struct {
	Series bool             // the server played a series ("roundN." greetings)
	Games  []BattleshipGame // in order; the games finished before an error too
	Tally  *protocol.Tally  // the series trailer as the server sent it (nil without one)
}

// PlayBattleshipSeries plays every game the server offers on conn: one
// game after the plain greeting, or a whole series after "round1. please
// send me initial state." (the classic series variant: a "roundN." greeting
// per game, a final "." on the last end line, then the trailer). Game k
// (from 0) is played by factory(rngFor(k)), except in a series where a
// player that learns across games (NewGame and EndGame, as arena.Learner)
// is kept from the first game to the last: NewGame(rngFor(k)) starts each
// later game and EndGame tells it how each one ended. Each game is played
// as by PlayBattleship; opts.OnGame hears each end.
func PlayBattleshipSeries(ctx context.Context, conn net.Conn, factory bsplayers.Factory, rngFor func(game int) *rand.Rand, opts BattleshipPlayOptions) (BattleshipSeries, error) {
	var res BattleshipSeries
	err := playFleet(ctx, conn, opts, "battleship", func(c *client, r *battleship.Rules) error {
		line, err := c.read("greeting")
		if err != nil {
			return err
		}
		d, round, err := protocol.ParseGreeting(line)
		if err != nil || d != protocol.Classic {
			return protocol.NewProtocolError(line, fmt.Errorf("%w: want the greeting %q or %q", protocol.ErrUnexpected, bswire.Greeting, protocol.SeriesRound(1)))
		}
		res.Series = round > 0
		var kept bsplayers.Player // in a series: the learner kept across its games
		res.Tally, err = c.playSeries(round, func(game, round int) (bool, error) {
			var p bsplayers.Player
			if l, ok := kept.(learner); ok {
				l.NewGame(rngFor(game))
				p = kept
			} else {
				p = factory(rngFor(game))
				if _, ok := p.(learner); ok && round > 0 {
					kept = p
				}
			}
			g, err := c.battleship(r, p)
			g.Game, g.Round = game, round
			if err != nil {
				return false, fmt.Errorf("game %d: %w", game+1, err)
			}
			res.Games = append(res.Games, g)
			if l, ok := kept.(learner); ok {
				l.EndGame(endOf(game, g.First, g.End))
			}
			if opts.OnGame != nil {
				opts.OnGame(g)
			}
			return g.Last, nil
		})
		return err
	})
	return res, err
}

// playFleet runs play, one game of a Battleship-board protocol (game names
// it in errors), on conn with opts' defaults applied: cancelling ctx closes
// conn; conn stays open otherwise.
func playFleet(ctx context.Context, conn net.Conn, opts BattleshipPlayOptions, game string, play func(c *client, r *battleship.Rules) error) error {
	if opts.Rules == nil {
		opts.Rules = battleship.DefaultRules()
	}
	po := SubmarinePlayOptions{ReadTimeout: opts.ReadTimeout, WriteTimeout: opts.WriteTimeout, MaxLine: opts.MaxLine, Log: opts.Log}
	if po.ReadTimeout == 0 {
		po.ReadTimeout = DefaultPlayReadTimeout
	}
	if po.WriteTimeout == 0 {
		po.WriteTimeout = DefaultPlayWriteTimeout
	}
	if po.Log == nil {
		po.Log = slog.New(slog.DiscardHandler)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("client: play %s: %w", game, err)
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	c := &client{conn: conn, lr: protocol.NewLineReader(conn, opts.MaxLine), opts: po}
	err := play(c, opts.Rules)
	if err != nil {
		err = fmt.Errorf("client: play %s: %w", game, err)
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%w)", ctx.Err(), err)
		}
	}
	return err
}

// battleship plays one game on c, whose greeting has been read.
func (c *client) battleship(r *battleship.Rules, p bsplayers.Player) (BattleshipGame, error) {
	var g BattleshipGame
	place := p.Place()
	if err := r.ValidatePlacement(place); err != nil {
		return g, fmt.Errorf("the player's placement: %w", err)
	}
	if err := c.write(bswire.EncodeShips(r, place)); err != nil {
		return g, err
	}
	var shot [2]grid.Set // cells shot by me [0] and by the opponent [1]
	turn := 0
	for {
		line, err := c.read("turn")
		if err != nil {
			return g, err
		}
		mine := false
		switch string(line) {
		case protocol.YourTurn:
			mine = true
			g.First = g.First || turn == 0
			at := p.Shoot()
			if err := c.write(bswire.EncodeShoot(r, at)); err != nil {
				return g, err
			}
		case protocol.Waiting:
		default:
			if e, last := protocol.ParseEnd(line); e != protocol.NotEnd {
				g.End, g.Line, g.Last = e, string(line), last
				return g, nil
			}
			res, err := bswire.DecodeShotResult(line, r)
			if err == nil && res.Error != "" && !res.HasShot {
				g.Errors = append(g.Errors, res.Error)
				continue
			}
			if err == nil && !res.HasShot && res.GameOutcome != protocol.NoOutcome {
				continue // a forfeit's outcome line; the end line follows
			}
			return g, protocol.NewProtocolError(line, fmt.Errorf("%w: want %q, %q or an end line", protocol.ErrUnexpected, protocol.YourTurn, protocol.Waiting))
		}
		turn++
		// One result line answers the turn; an error line may come first,
		// and a server that ends the game at once sends the end line.
		var res bswire.ShotResult
		for {
			line, err = c.read("result")
			if err != nil {
				return g, err
			}
			if e, last := protocol.ParseEnd(line); e != protocol.NotEnd {
				g.End, g.Line, g.Last = e, string(line), last
				return g, nil
			}
			if res, err = bswire.DecodeShotResult(line, r); err != nil {
				return g, err
			}
			if res.Error != "" && !res.HasShot && res.GameOutcome == protocol.NoOutcome {
				g.Errors = append(g.Errors, res.Error)
				continue
			}
			break
		}
		if !res.HasShot {
			continue // the game ended by a forfeit: the end line follows
		}
		side := 1
		if mine {
			side = 0
		}
		g.Shots[side]++
		ev := battleship.Event{Mine: mine, Illegal: res.Illegal, Result: battleship.Result{At: res.At, Outcome: res.Outcome, Sunk: res.Sunk}}
		if !res.Illegal {
			ev.Repeat = shot[side].Has(res.At)
			shot[side].Add(res.At)
			ev.Again = ev.Result.Again()
		} else {
			ev.At = grid.None
		}
		p.Observe(ev)
	}
}
