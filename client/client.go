package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/series"
)

// Client defaults.
const (
	// DefaultPlayReadTimeout bounds the wait for each line from the server.
	// The opponent's thinking time counts, so it is generous.
	DefaultPlayReadTimeout = 5 * time.Minute
	// DefaultPlayWriteTimeout bounds each line written to the server.
	DefaultPlayWriteTimeout = 30 * time.Second
	// DefaultPlayName is the name sent to submarine-py servers.
	DefaultPlayName = "kaisen"
)

// ErrUnfinished is returned when the server closes the connection before a
// game has ended (it also wraps io.ErrUnexpectedEOF).
var ErrUnfinished = errors.New("client: play: connection closed before the game ended")

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
	if opts.ReadTimeout == 0 {
		opts.ReadTimeout = DefaultPlayReadTimeout
	}
	if opts.WriteTimeout == 0 {
		opts.WriteTimeout = DefaultPlayWriteTimeout
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if err := ctx.Err(); err != nil {
		return SubmarineResult{}, fmt.Errorf("client: play: %w", err)
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	c := &client{conn: conn, lr: protocol.NewLineReader(conn, opts.MaxLine), opts: opts, build: build, rngFor: rngFor}
	res, err := c.run()
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("client: play: %w (%w)", ctx.Err(), err)
	}
	return res, err
}

// client is one PlaySubmarine call.
type client struct {
	conn   net.Conn
	lr     *protocol.LineReader
	opts   SubmarinePlayOptions
	build  SubmarinePlayerFor
	rngFor func(game int) *rand.Rand

	d       protocol.Dialect
	rules   *submarine.Rules // rules of the cached factory
	factory players.Factory
	kept    players.Player // in a series: the player kept across its games (a learner), else nil
}

// learner is a player that learns across the games of a series (as
// arena.Learner): PlaySubmarine keeps it from the first game of a series to
// the last, starts every later game with NewGame and tells it each game's
// end with EndGame.
type learner interface {
	NewGame(rng *rand.Rand)
	EndGame(end series.End)
}

// endOf is the end of game number game (from 0) for a learner that moved
// first (or not) and saw end: seat 0 is the side that moved first.
func endOf(game int, first bool, end protocol.End) series.End {
	e := series.End{Game: game, Seat: 1, First: 0, Winner: -1}
	if first {
		e.Seat = 0
	}
	switch end {
	case protocol.EndWin:
		e.Winner = e.Seat
	case protocol.EndLose:
		e.Winner = 1 - e.Seat
	}
	return e
}

func (c *client) run() (SubmarineResult, error) {
	var res SubmarineResult
	line, err := c.read("greeting")
	if err != nil {
		return res, fmt.Errorf("client: play: %w", err)
	}
	d, round, err := protocol.ParseGreeting(line)
	if err != nil {
		return res, fmt.Errorf("client: play: %w", err)
	}
	c.d, res.Dialect, res.Series = d, d, round > 0
	var gameErr error // a game's error, wrapped already
	res.Tally, err = c.playSeries(round, func(game, round int) (bool, error) {
		g, err := c.game(game, round)
		if err != nil {
			gameErr = fmt.Errorf("client: play game %d: %w", game+1, err)
			return false, gameErr
		}
		res.Games = append(res.Games, g)
		if l, ok := c.kept.(learner); ok {
			l.EndGame(endOf(g.Game, g.First, g.End))
		}
		if c.opts.OnGame != nil {
			c.opts.OnGame(g)
		}
		return g.Last, nil
	})
	if err != nil && err != gameErr {
		err = fmt.Errorf("client: play: %w", err)
	}
	return res, err
}

// playSeries plays the games of a connection whose greeting said round
// (0: not a series): play(game, round) plays game number game (from 0)
// and reports whether its end line was the series' last (the final "."),
// or its error, returned as it is. Outside a series it plays one game. In
// a series it then reads the next round's greeting, or after the last game
// the trailer, which it returns; a server that closes the connection
// between games without a trailer ends the series without an error (nil
// tally).
func (c *client) playSeries(round int, play func(game, round int) (bool, error)) (*protocol.Tally, error) {
	for game := 0; ; game++ {
		last, err := play(game, round)
		if err != nil || round == 0 {
			return nil, err
		}
		if last {
			t, err := c.trailer()
			if err != nil {
				return nil, err
			}
			return &t, nil
		}
		line, err := c.readLine() // next round, or the end of the series
		if errors.Is(err, io.EOF) {
			return nil, nil // a series server that stops without a trailer
		}
		if err != nil {
			return nil, c.readErr("next round", err)
		}
		nd, n, err := protocol.ParseGreeting(line)
		if err != nil || nd != protocol.Classic || n == 0 {
			return nil, protocol.NewProtocolError(line, fmt.Errorf("%w: want %q after a series game", protocol.ErrUnexpected, protocol.SeriesRound(round+1)))
		}
		round = n
	}
}

// game plays one game whose greeting has been read.
func (c *client) game(game, round int) (SubmarineGame, error) {
	g := SubmarineGame{Game: game, Round: round}
	rules := c.opts.Rules
	if c.d == protocol.SubmarinePy {
		if err := c.write([]byte(c.opts.Name)); err != nil {
			return g, err
		}
		line, err := c.read("field")
		if err != nil {
			return g, err
		}
		b, err := subwire.DecodeField(line)
		if err != nil {
			return g, err
		}
		rules = &submarine.Rules{Board: b, Fleet: c.opts.Rules.Fleet, DrawLimit: c.opts.Rules.DrawLimit}
		if err := rules.Validate(); err != nil {
			return g, protocol.NewProtocolError(line, fmt.Errorf("%w: %w", protocol.ErrUnexpected, err))
		}
	}
	if c.factory == nil || !sameRules(c.rules, rules) {
		f, err := c.build(rules)
		if err != nil {
			return g, fmt.Errorf("build player: %w", err)
		}
		c.factory, c.rules, c.kept = f, rules, nil
	}
	var p players.Player
	if l, ok := c.kept.(learner); ok {
		l.NewGame(c.rngFor(game))
		p = c.kept
	} else {
		p = c.factory(c.rngFor(game))
		if _, ok := p.(learner); ok && round > 0 {
			c.kept = p
		}
	}
	place := p.Place()
	if err := rules.ValidatePlacement(place); err != nil {
		return g, fmt.Errorf("the player's placement: %w", err)
	}
	if err := c.write(subwire.EncodePlacement(c.d, rules, place)); err != nil {
		return g, err
	}
	view := submarine.View{Me: submarine.NewFleet(rules, place)}
	for i, s := range rules.Fleet {
		view.EnemyHP[i] = int8(s.HP)
	}
	for turn := 0; ; turn++ {
		line, err := c.read("turn")
		if err != nil {
			return g, err
		}
		var res subwire.Result
		var act submarine.Action
		mine := false
		switch string(line) {
		case protocol.YourTurn:
			mine = true
			g.First = g.First || turn == 0
			act = p.Act()
			if err := c.write(subwire.EncodeAction(c.d, rules, act)); err != nil {
				return g, err
			}
		case protocol.Waiting:
		default:
			if e, last := protocol.ParseEnd(line); e != protocol.NotEnd {
				g.End, g.Line, g.Last = e, string(line), last
				return g, nil
			}
			return g, protocol.NewProtocolError(line, fmt.Errorf("%w: want %q, %q or an end line", protocol.ErrUnexpected, protocol.YourTurn, protocol.Waiting))
		}
		// Exactly one result line answers "your turn" and "waiting"; a
		// server that ends the game instead sends the end line.
		line, err = c.read("result")
		if err != nil {
			return g, err
		}
		if e, last := protocol.ParseEnd(line); e != protocol.NotEnd {
			g.End, g.Line, g.Last = e, string(line), last
			return g, nil
		}
		if res, err = subwire.DecodeResult(c.d, line, rules, mine); err != nil {
			return g, err
		}
		ev := res.Event
		if mine && !res.HasResult && res.Outcome == protocol.Won {
			// The opponent forfeited (disconnect, timeout, out-of-turn line)
			// before our action counted: the server answers with the outcome
			// alone and the end line follows. There is nothing to observe.
			view = res.View
			continue
		}
		if mine {
			if ev, err = ownEvent(rules, act, res, &view.Me); err != nil {
				return g, protocol.NewProtocolError(line, err)
			}
		}
		// The wire drops sunk ships; like the engine, keep their last cell.
		for i := range rules.Fleet {
			if !res.View.Me.Alive.Has(i) {
				res.View.Me.Pos[i] = view.Me.Pos[i]
			}
		}
		view = res.View
		g.Actions++
		p.Observe(ev, &view)
	}
}

// ownEvent is what the engine tells a player about its own action act,
// given the server's answer res and the player's fleet before the action.
func ownEvent(r *submarine.Rules, act submarine.Action, res subwire.Result, before *submarine.Fleet) (submarine.Event, error) {
	ev := submarine.Event{Mine: true, Kind: act.Kind, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}
	if act.Kind == submarine.Attack {
		if res.HasResult {
			if res.Event.Kind != submarine.Attack {
				return ev, fmt.Errorf("%w: the answer to an attack reports a move", protocol.ErrUnexpected)
			}
			return res.Event, nil
		}
		if res.Outcome != protocol.Lost {
			return ev, fmt.Errorf("%w: the answer to an attack has no result", protocol.ErrUnexpected)
		}
		ev.Illegal = true // a forfeit
		return ev, nil
	}
	if act.Kind != submarine.Move || res.Event.Illegal || res.Outcome == protocol.Lost ||
		act.Ship < 0 || act.Ship >= len(r.Fleet) || !r.Board.IsUsable(act.To) {
		ev.Illegal = true
		return ev, nil
	}
	fx, fy := r.Board.XY(before.Pos[act.Ship])
	tx, ty := r.Board.XY(act.To)
	ev.Ship, ev.To, ev.DX, ev.DY = act.Ship, act.To, tx-fx, ty-fy
	return ev, nil
}

// trailer reads the series trailer after the last game.
func (c *client) trailer() (protocol.Tally, error) {
	lines := make([][]byte, 5)
	for i := range lines {
		line, err := c.read("series trailer")
		if err != nil {
			return protocol.Tally{}, err
		}
		lines[i] = line
	}
	return protocol.ParseTrailer(lines)
}

// read returns the next line from the server within the read timeout; what
// names the expected line in errors.
func (c *client) read(what string) ([]byte, error) {
	line, err := c.readLine()
	if err != nil {
		return nil, c.readErr(what, err)
	}
	return line, nil
}

// readLine is read with the line reader's own errors (io.EOF at the end).
func (c *client) readLine() ([]byte, error) {
	if c.opts.ReadTimeout > 0 {
		// An error here means the connection is closed; the read reports it
		// (after any line still buffered).
		_ = c.conn.SetReadDeadline(time.Now().Add(c.opts.ReadTimeout))
	}
	line, err := c.lr.ReadLine()
	if err != nil {
		return nil, err
	}
	c.opts.Log.Debug("play: received", "line", string(line))
	if err := refused(line); err != nil {
		return nil, err
	}
	return line, nil
}

func (c *client) readErr(what string, err error) error {
	var pe *protocol.ProtocolError
	switch {
	case errors.As(err, &pe), errors.Is(err, ErrRefused):
		return err
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%w (waiting for the %s): %w", ErrUnfinished, what, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("read %s: %w", what, err)
}

// write sends one line within the write timeout.
func (c *client) write(line []byte) error {
	if c.opts.WriteTimeout > 0 {
		_ = c.conn.SetWriteDeadline(time.Now().Add(c.opts.WriteTimeout)) // a closed connection fails the write
	}
	c.opts.Log.Debug("play: sent", "line", string(line))
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	if _, err := c.conn.Write(buf); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// sameRules reports whether a and b describe the same game.
func sameRules(a, b *submarine.Rules) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.DrawLimit != b.DrawLimit || len(a.Fleet) != len(b.Fleet) ||
		a.Board.Width() != b.Board.Width() || a.Board.Height() != b.Board.Height() || a.Board.Usable() != b.Board.Usable() {
		return false
	}
	for i := range a.Fleet {
		if a.Fleet[i] != b.Fleet[i] {
			return false
		}
	}
	return true
}
