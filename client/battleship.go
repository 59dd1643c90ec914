package client

// The battleship client: PlayBattleship connects one battleship AI (package
// bsplayers) to a Kaisen battleship server and plays one game.

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/kaisen-ai/kaisen/game/battleship"
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
}

// BattleshipGame is how one battleship game went for the client.
type BattleshipGame struct {
	End   protocol.End // how it ended for this client
	Line  string       // the end line exactly as the server sent it
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
// the shots seen), and returns at the end line. A malformed or unexpected
// line is an error wrapping a *protocol.ProtocolError. Cancelling ctx closes
// conn; PlayBattleship leaves conn open otherwise.
func PlayBattleship(ctx context.Context, conn net.Conn, p bsplayers.Player, opts BattleshipPlayOptions) (BattleshipGame, error) {
	var g BattleshipGame
	err := playFleet(ctx, conn, opts, "battleship", func(c *client, r *battleship.Rules) (err error) {
		g, err = c.battleship(r, p)
		return err
	})
	return g, err
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

// battleship plays one game on c.
func (c *client) battleship(r *battleship.Rules, p bsplayers.Player) (BattleshipGame, error) {
	var g BattleshipGame
	line, err := c.read("greeting")
	if err != nil {
		return g, err
	}
	if string(line) != protocol.BattleshipGreeting {
		return g, protocol.NewProtocolError(line, fmt.Errorf("%w: want the greeting %q", protocol.ErrUnexpected, protocol.BattleshipGreeting))
	}
	place := p.Place()
	if err := r.ValidatePlacement(place); err != nil {
		return g, fmt.Errorf("the player's placement: %w", err)
	}
	if err := c.write(protocol.EncodeShips(r, place)); err != nil {
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
			if err := c.write(protocol.EncodeShoot(r, at)); err != nil {
				return g, err
			}
		case protocol.Waiting:
		default:
			if e, _ := protocol.ParseEnd(line); e != protocol.NotEnd {
				g.End, g.Line = e, string(line)
				return g, nil
			}
			res, err := protocol.DecodeShotResult(line, r)
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
		var res protocol.ShotResult
		for {
			line, err = c.read("result")
			if err != nil {
				return g, err
			}
			if e, _ := protocol.ParseEnd(line); e != protocol.NotEnd {
				g.End, g.Line = e, string(line)
				return g, nil
			}
			if res, err = protocol.DecodeShotResult(line, r); err != nil {
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
