package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"time"

	"github.com/kaisen-ai/kaisen/game"
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

// ErrPlacement is wrapped by Play's error when the player's placement is
// invalid (it is never sent): a person's seat whose input ended, or a
// broken AI.
var ErrPlacement = errors.New("the player's placement")

// Options configures Play. The zero value plays with the default timeouts.
type Options struct {
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
	OnGame func(Game)
	// Wording words the errors (the zero value: WordGames).
	Wording Wording
}

// Game is how one game played by Play went for the client.
type Game struct {
	Game  int          // index of the game on this connection (from 0), the argument of rngFor
	Round int          // series round from the greeting (0 outside a series)
	End   protocol.End // how it ended for this client
	Line  string       // the end line exactly as the server sent it
	Last  bool         // the end line had the series' final "."
	First bool         // this client acted first (the first turn line was its turn)
	// Started: a turn line came before the end. A game lost before it
	// started ended during the placement: the server refused it or its
	// time for it ran out (a classic server says only "you lose").
	Started bool
	// AfterAction: the end came right after the client's action, before
	// any line about it. A loss then is a late or refused action (a
	// classic server says only "you lose").
	AfterAction bool
	Told        int // observations its player was told from the server's lines
}

// Result is every game Play played on one connection.
type Result struct {
	Series bool            // the server played a series ("roundN." greetings)
	Games  []Game          // in order; the games finished before an error too
	Tally  *protocol.Tally // the series trailer as the server sent it (nil without one)
}

// Placer is a game's rules as Play checks its player's placement.
type Placer[P any] interface {
	ValidatePlacement(p P) error
}

// Play plays every game the server at conn offers, through codec (the
// client side of the game's wire protocol, from its wire package): one
// game, or a whole series ("roundN." greetings, a final "." on the last
// end line, then the trailer). name names the game in errors.
//
// Each game's player comes from the factory build makes for its rules
// (built again when the rules change: submarine-py fields), with
// rngFor(k) for game k (from 0) and the seat the codec says; in a series,
// a player that learns across games (game.Learner, through adapters) is
// kept from the first game to the last instead, started with
// NewGame(rngFor(k)) and told each game's end (series.End, seat 0 being
// the side that acted first). It answers every turn with the player's
// action and tells the player what the codec decodes; each game's end line
// is returned as the server sent it.
//
// A malformed or unexpected line from the server is an error wrapping a
// *protocol.ProtocolError that quotes it. A codec may hold a failed write
// to read what the server sent before it closed (abwire.Client does); a
// read that fails after it returns the write's error. Cancelling ctx
// closes conn; Play leaves conn open otherwise. The games finished before
// an error are in the returned Result.
func Play[R Placer[P], P, A, O any](ctx context.Context, conn net.Conn, name string, codec game.ClientCodec[R, P, A, O],
	build func(rules R) (game.Factory[P, A, O], error), rngFor func(k int) *rand.Rand, opts Options) (Result, error) {
	if opts.ReadTimeout == 0 {
		opts.ReadTimeout = DefaultPlayReadTimeout
	}
	if opts.WriteTimeout == 0 {
		opts.WriteTimeout = DefaultPlayWriteTimeout
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	st := opts.Wording.style(name)
	if err := ctx.Err(); err != nil {
		return Result{}, st.err(err)
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	s := &session[R, P, A, O]{lines: lines{conn: conn, lr: protocol.NewLineReader(conn, opts.MaxLine), opts: &opts},
		st: st, codec: codec, build: build, rngFor: rngFor, onGame: opts.OnGame}
	res, err := s.run()
	if err != nil && ctx.Err() != nil {
		err = st.cancelled(ctx.Err(), err)
	}
	return res, err
}

// Wording is how Play words its errors: each game's client keeps the words
// it had before the games shared one client loop.
type Wording uint8

// The wordings.
const (
	// WordGames: "client: play GAME: ERR", a game's "client: play GAME:
	// game N: ERR" (the battleship client's).
	WordGames Wording = iota
	// WordSubmarine: "client: play: ERR", a game's "client: play game N:
	// ERR", the game not named (the submarine client's).
	WordSubmarine
	// WordOneGame: "client: play GAME: ERR", a game's too (PlayBattleship's
	// and PlayAbilities', which report one game).
	WordOneGame
)

// style is a Wording for one game.
type style struct {
	prefix   string // of every error: "client: play GAME"
	numbered bool   // a game's errors name it: "game N: "
	legacy   bool   // WordSubmarine
	build    string // a factory's error: "build player: "
}

func (w Wording) style(name string) style {
	switch w {
	case WordSubmarine:
		return style{prefix: "client: play", legacy: true, build: "build player"}
	case WordOneGame:
		return style{prefix: "client: play " + name, build: "build the player"}
	}
	return style{prefix: "client: play " + name, numbered: true, build: "build player"}
}

func (s *style) err(err error) error { return fmt.Errorf("%s: %w", s.prefix, err) }

func (s *style) gameErr(k int, err error) error {
	switch {
	case s.legacy:
		return fmt.Errorf("client: play game %d: %w", k+1, err)
	case s.numbered:
		return fmt.Errorf("%s: game %d: %w", s.prefix, k+1, err)
	}
	return s.err(err)
}

func (s *style) cancelled(ctxErr, err error) error {
	if s.legacy {
		return fmt.Errorf("client: play: %w (%w)", ctxErr, err)
	}
	return fmt.Errorf("%w (%w)", ctxErr, err)
}

// session is one play call.
type session[R Placer[P], P, A, O any] struct {
	lines
	st     style
	codec  game.ClientCodec[R, P, A, O]
	build  func(R) (game.Factory[P, A, O], error)
	rngFor func(int) *rand.Rand
	onGame func(Game)

	factory game.Factory[P, A, O] // for the current rules
	kept    game.Player[P, A, O]  // in a series: the player kept across its games (a learner), else nil
	learner game.Learner          // kept, as a learner
	told    O
}

func (s *session[R, P, A, O]) run() (Result, error) {
	var res Result
	line, err := s.Read(s.codec.Next())
	if err != nil {
		return res, s.st.err(err)
	}
	round, err := s.codec.Greet(line)
	if err != nil {
		return res, s.st.err(err)
	}
	res.Series = round > 0
	var gameErr error // a game's error, wrapped already
	res.Tally, err = s.playSeries(round, func(k, round int) (bool, error) {
		g, err := s.game(k, round)
		if err != nil {
			gameErr = s.st.gameErr(k, err)
			return false, gameErr
		}
		res.Games = append(res.Games, g)
		if s.learner != nil {
			s.learner.EndGame(endOf(g.Game, g.First, g.End))
		}
		if s.onGame != nil {
			s.onGame(g)
		}
		return g.Last, nil
	})
	if err != nil && err != gameErr {
		err = s.st.err(err)
	}
	return res, err
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

// playSeries plays the games of a connection whose greeting said round
// (0: not a series): play(game, round) plays game number game (from 0)
// and reports whether its end line was the series' last (the final "."),
// or its error, returned as it is. Outside a series it plays one game. In
// a series it then reads the next round's greeting, or after the last game
// the trailer, which it returns; a server that closes the connection
// between games without a trailer ends the series without an error (nil
// tally).
func (s *session[R, P, A, O]) playSeries(round int, play func(game, round int) (bool, error)) (*protocol.Tally, error) {
	for k := 0; ; k++ {
		last, err := play(k, round)
		if err != nil || round == 0 {
			return nil, err
		}
		if last {
			t, err := s.trailer()
			if err != nil {
				return nil, err
			}
			return &t, nil
		}
		line, err := s.readLine() // next round, or the end of the series
		if errors.Is(err, io.EOF) {
			return nil, nil // a series server that stops without a trailer
		}
		if err != nil {
			return nil, s.readErr("next round", err)
		}
		nd, n, err := protocol.ParseGreeting(line)
		if err != nil || nd != protocol.Classic || n == 0 {
			return nil, protocol.NewProtocolError(line, fmt.Errorf("%w: want %q after a series game", protocol.ErrUnexpected, protocol.SeriesRound(round+1)))
		}
		round = n
	}
}

// game plays game k of the connection, whose greeting has been read.
func (s *session[R, P, A, O]) game(k, round int) (Game, error) {
	g := Game{Game: k, Round: round}
	op, err := s.codec.Open(&s.lines)
	if err != nil {
		return g, err
	}
	if op.Fresh || s.factory == nil {
		f, err := s.build(op.Rules)
		if err != nil {
			return g, fmt.Errorf("%s: %w", s.st.build, err)
		}
		s.factory, s.kept, s.learner = f, nil, nil
	}
	p := s.player(k, round, op.Seat)
	place := p.Place()
	if err := op.Rules.ValidatePlacement(place); err != nil {
		return g, fmt.Errorf("%w: %w", ErrPlacement, err)
	}
	if err := s.codec.Place(place); err != nil {
		return g, err
	}
	turned := false // a turn line was read
	acted := false  // the last thing done was the player's action
	for {
		line, err := s.Read(s.codec.Next())
		if err != nil {
			return g, err
		}
		if e, last := protocol.ParseEnd(line); e != protocol.NotEnd {
			g.End, g.Line, g.Last, g.Started, g.AfterAction = e, string(line), last, turned, acted
			return g, nil
		}
		acted = false
		h, err := s.codec.Decode(line, &s.told)
		if err != nil {
			return g, err
		}
		switch h {
		case game.HeardTurn, game.HeardWait:
			if !turned {
				g.First, turned = h == game.HeardTurn, true
			}
			if h == game.HeardTurn {
				if err := s.act(p); err != nil {
					return g, err
				}
				acted = true
			}
		case game.HeardTold:
			g.Told++
			p.Observe(s.told)
		}
	}
}

// player is the player of game k (round: its series round, seat: the
// client's seat).
func (s *session[R, P, A, O]) player(k, round, seat int) game.Player[P, A, O] {
	if s.learner != nil {
		s.learner.NewGame(s.rngFor(k))
		return s.kept
	}
	p := s.factory(s.rngFor(k), seat)
	if l, ok := game.As[game.Learner](p); ok && round > 0 {
		s.kept, s.learner = p, l
	}
	return p
}

// act sends p's action, and its next ones while the codec knows their
// results without the server.
func (s *session[R, P, A, O]) act(p game.Player[P, A, O]) error {
	for {
		again, err := s.codec.Act(p.Act(), &s.told)
		if err != nil || !again {
			return err
		}
		p.Observe(s.told)
	}
}

// trailer reads the series trailer after the last game.
func (s *session[R, P, A, O]) trailer() (protocol.Tally, error) {
	lines := make([][]byte, 5)
	for i := range lines {
		line, err := s.Read("series trailer")
		if err != nil {
			return protocol.Tally{}, err
		}
		lines[i] = line
	}
	return protocol.ParseTrailer(lines)
}

// lines is the connection of one play call (game.Lines).
type lines struct {
	conn net.Conn
	lr   *protocol.LineReader
	opts *Options
	wbuf []byte
	// werr is the first failed write: a read that fails after it returns
	// it (the cause) instead of its own error.
	werr error
}

// Read returns the next line from the server within the read timeout; what
// names the expected line in errors.
func (c *lines) Read(what string) ([]byte, error) {
	line, err := c.readLine()
	if err != nil {
		if c.werr != nil {
			return nil, c.werr
		}
		return nil, c.readErr(what, err)
	}
	return line, nil
}

// readLine is Read with the line reader's own errors (io.EOF at the end).
func (c *lines) readLine() ([]byte, error) {
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

func (c *lines) readErr(what string, err error) error {
	var pe *protocol.ProtocolError
	switch {
	case errors.As(err, &pe), errors.Is(err, ErrRefused):
		return err
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%w (waiting for the %s): %w", ErrUnfinished, what, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("read %s: %w", what, err)
}

// Write sends one line within the write timeout.
func (c *lines) Write(line []byte) error {
	if c.opts.WriteTimeout > 0 {
		_ = c.conn.SetWriteDeadline(time.Now().Add(c.opts.WriteTimeout)) // a closed connection fails the write
	}
	c.opts.Log.Debug("play: sent", "line", string(line))
	c.wbuf = append(append(c.wbuf[:0], line...), '\n')
	if _, err := c.conn.Write(c.wbuf); err != nil {
		err = fmt.Errorf("write: %w", err)
		if c.werr == nil {
			c.werr = err
		}
		return err
	}
	return nil
}
