package client

// The battleship client: PlayBattleship connects one battleship AI (package
// bsplayers) to a Kaisen battleship server and plays one game;
// PlayBattleshipSeries plays whatever the server offers, one game or a
// series. Both are Play with bswire.Client.

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"time"

	"github.com/kaisen-ai/kaisen/game"
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

// options are the Options of o, and its rules (the default ones for nil).
func (o *BattleshipPlayOptions) options() (*battleship.Rules, Options) {
	r := o.Rules
	if r == nil {
		r = battleship.DefaultRules()
	}
	return r, Options{ReadTimeout: o.ReadTimeout, WriteTimeout: o.WriteTimeout, MaxLine: o.MaxLine, Log: o.Log}
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

// battleshipGame is g as the battleship functions report it, with c's
// tallies of the game.
func battleshipGame(g Game, c *bswire.Client) BattleshipGame {
	return BattleshipGame{Game: g.Game, Round: g.Round, End: g.End, Line: g.Line, Last: g.Last, First: g.First, Shots: c.Shots(), Errors: c.Errors()}
}

// oneGame is the battleship codec that refuses a series greeting.
type oneGame struct{ *bswire.Client }

func (c oneGame) Greet(line []byte) (int, error) {
	if string(line) != bswire.Greeting {
		return 0, protocol.NewProtocolError(line, fmt.Errorf("%w: want the greeting %q (a series greeting needs PlayBattleshipSeries)", protocol.ErrUnexpected, bswire.Greeting))
	}
	return 0, nil
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
	r, po := opts.options()
	codec := bswire.NewClient(r)
	build := func(*battleship.Rules) (game.Factory[battleship.Placement, grid.Cell, battleship.Event], error) {
		return bsplayers.Adapt(func(*rand.Rand) bsplayers.Player { return p }), nil
	}
	po.Wording = WordOneGame
	res, err := Play(ctx, conn, battleship.Name, oneGame{codec}, build, func(int) *rand.Rand { return nil }, po)
	if len(res.Games) == 0 {
		return BattleshipGame{Shots: codec.Shots(), Errors: codec.Errors()}, err
	}
	return battleshipGame(res.Games[0], codec), err
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
	r, po := opts.options()
	codec := bswire.NewClient(r)
	var res BattleshipSeries
	po.OnGame = func(g Game) {
		bg := battleshipGame(g, codec)
		res.Games = append(res.Games, bg)
		if opts.OnGame != nil {
			opts.OnGame(bg)
		}
	}
	build := func(*battleship.Rules) (game.Factory[battleship.Placement, grid.Cell, battleship.Event], error) {
		return bsplayers.Adapt(factory), nil
	}
	pr, err := Play(ctx, conn, battleship.Name, codec, build, rngFor, po)
	res.Series, res.Tally = pr.Series, pr.Tally
	return res, err
}
