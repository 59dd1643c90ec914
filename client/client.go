package client

// The submarine client: PlaySubmarine connects one submarine AI (package
// players) to any submarine server, in every dialect subwire.Client knows.

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
)

// SubmarinePlayerFor builds the player factory for the rules of a game. PlaySubmarine calls it
// once per distinct rules: in the submarine-py dialect the board comes from
// the server's field message, so the rules are known only then.
type SubmarinePlayerFor func(rules *submarine.Rules) (players.Factory, error)

// SubmarinePlayOptions configures PlaySubmarine. The zero value plays the default game with the
// default timeouts.
type SubmarinePlayOptions struct {
	// Rules are the classic dialect's rules; in the submarine-py dialect
	// their fleet and draw limit are used with the server's board.
	// nil means submarine.DefaultRules().
	Rules *submarine.Rules
	// Name is the line sent to submarine-py servers ("" = DefaultPlayName).
	Name string
	// ReadTimeout bounds each read (0 = DefaultPlayReadTimeout, < 0 = none).
	ReadTimeout time.Duration
	// WriteTimeout bounds each write (0 = DefaultPlayWriteTimeout, < 0 = none).
	WriteTimeout time.Duration
	// MaxLine is the longest line accepted from the server
	// (0 = protocol.DefaultMaxLine).
	MaxLine int
	// Log receives one debug record per line sent and received (nil = none).
	Log *slog.Logger
	// OnGame, when set, is called as soon as each game ends.
	OnGame func(SubmarineGame)
}

// SubmarineGame is one game played by PlaySubmarine.
type SubmarineGame struct {
	Game    int          // index of the game on this connection (from 0), the argument of rngFor
	Round   int          // series round from the greeting (0 outside a series)
	End     protocol.End // how it ended for this client
	Line    string       // the end line exactly as the server sent it
	Last    bool         // the end line had the series' final "."
	First   bool         // this client moved first
	Actions int          // actions of both sides
}

// SubmarineResult is what PlaySubmarine returns: every game played on the connection.
type SubmarineResult struct {
	Dialect protocol.Dialect
	Series  bool
	Games   []SubmarineGame
	Tally   *protocol.Tally // the series trailer as the server sent it (nil without one)
}

// PlaySubmarine plays every game the server at conn offers, with a new player for
// each game from build's factory and rngFor(game); in a series, a player that
// learns across games (NewGame and EndGame, as arena.Learner) is kept from
// the first game to the last instead, started with NewGame(rngFor(game)) and
// told each game's end (series.End, seat 0 being the side that moved first). It recognises the dialect
// from the greeting: the classic one plays one game; "roundN." greetings are
// a series, played until the last end line ("you win." etc.) and its tally
// trailer; the submarine-py one sends opts.Name, reads the field (which sets
// the board) and plays one game.
//
// It answers every "your turn" with the player's action and reads exactly one
// result line after it and after every "waiting", and tells the player what
// the wire says (its own moves are completed from its action, so the player
// sees the same Events and Views as in-process). Each game's end line is
// returned as the server sent it.
//
// A malformed or unexpected line from the server is an error wrapping a
// *protocol.ProtocolError that quotes it. Cancelling ctx closes conn; PlaySubmarine
// leaves conn open otherwise. The games finished before an error are in the
// returned SubmarineResult.
//
// It is Play with subwire.Client.
func PlaySubmarine(ctx context.Context, conn net.Conn, build SubmarinePlayerFor, rngFor func(game int) *rand.Rand, opts SubmarinePlayOptions) (SubmarineResult, error) {
	if opts.Rules == nil {
		opts.Rules = submarine.DefaultRules()
	}
	if opts.Name == "" {
		opts.Name = DefaultPlayName
	}
	if strings.ContainsAny(opts.Name, "\r\n") {
		return SubmarineResult{}, fmt.Errorf("client: play: name %q has a line break", opts.Name)
	}
	codec := subwire.NewClient(opts.Rules, opts.Name)
	po := Options{ReadTimeout: opts.ReadTimeout, WriteTimeout: opts.WriteTimeout, MaxLine: opts.MaxLine, Log: opts.Log, Wording: WordSubmarine}
	if opts.OnGame != nil {
		po.OnGame = func(g Game) { opts.OnGame(submarineGame(g)) }
	}
	adapted := func(r *submarine.Rules) (game.Factory[submarine.Placement, submarine.Action, submarine.Told], error) {
		f, err := build(r)
		if err != nil {
			return nil, err
		}
		return players.Adapt(f), nil
	}
	r, err := Play(ctx, conn, submarine.Name, codec, adapted, rngFor, po)
	res := SubmarineResult{Dialect: codec.Dialect(), Series: r.Series, Tally: r.Tally}
	for _, g := range r.Games {
		res.Games = append(res.Games, submarineGame(g))
	}
	return res, err
}

// submarineGame is g as PlaySubmarine reports it: every action of both
// sides is told.
func submarineGame(g Game) SubmarineGame {
	return SubmarineGame{Game: g.Game, Round: g.Round, End: g.End, Line: g.Line, Last: g.Last, First: g.First, Actions: g.Told}
}
