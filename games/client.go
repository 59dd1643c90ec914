package games

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"time"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/internal/roster"
	"github.com/kaisen-ai/kaisen/protocol"
)

// ClientOptions are the settings of a network client (kaisen play).
type ClientOptions struct {
	Player string        // the built-in AI that plays
	Load   roster.Loader // its settings file (nil = its built-in defaults)
	// Name is sent to servers that ask for one ("" = "kaisen-" + Player).
	Name string
}

// PlayOptions are the settings of one connection of a Client.
type PlayOptions struct {
	// Seed seeds the AI of every game: game k of the connection whose
	// first game is first draws from rand.NewPCG(Seed, first+k).
	Seed        uint64
	ReadTimeout time.Duration // bound on each read from the server
	Log         *slog.Logger  // never nil
	// OnEnd is called once per game finished, with its end for this client.
	OnEnd func(end protocol.End)
	// OnGame, when set, is called after OnEnd with how the game went
	// (client.Game: its end, who acted first, what the player was told).
	OnGame func(g client.Game)
	// Print, when set, takes every line for the user: each game's end line
	// exactly as the server sent it, then any trailer (a series' tally).
	Print func(line string) error
}

// Client plays one AI over the game's wire protocol (kaisen play).
type Client interface {
	// Play plays every game the server offers on conn (one game, or a
	// whole series); first is the number of games played on earlier
	// connections. It returns the games finished, also on an error.
	Play(ctx context.Context, conn net.Conn, first int, opt PlayOptions) (int, error)
}

// printer prints what a Client shows the user (PlayOptions.Print): each
// game's end line as it ends, then a series' trailer. It keeps the first
// write error, which done returns.
type printer struct {
	print func(line string) error
	err   error
}

func (p *printer) line(l string) {
	if p.print != nil && p.err == nil {
		p.err = p.print(l)
	}
}

// trailer prints the lines of a series' tally (none for nil).
func (p *printer) trailer(t *protocol.Tally) {
	if t == nil {
		return
	}
	for _, l := range protocol.SeriesTrailer(*t) {
		p.line(l)
	}
}

// done returns Play's values: games, and err or else the write error.
func (p *printer) done(games int, err error) (int, error) {
	if err == nil && p.err != nil {
		err = fmt.Errorf("write output: %w", p.err)
	}
	return games, err
}

// netClient is the Client of every game (kaisen play): the generic client
// loop (client.Play) with a codec from the game's wire package for each
// connection and the AI's factory for each game's rules.
type netClient[R client.Placer[P], P, A, O any] struct {
	name    string         // the game's
	wording client.Wording // of its errors
	codec   func() game.ClientCodec[R, P, A, O]
	build   func(rules R) (game.Factory[P, A, O], error)
}

// Play plays every game the server offers on conn (Client): game k of the
// connection draws from rand.NewPCG(opt.Seed, first+k). Each game's end
// is logged (the server's error lines as warnings, the end at debug
// level), counted (OnEnd) and printed; a series' trailer is printed after
// its last game.
func (c *netClient[R, P, A, O]) Play(ctx context.Context, conn net.Conn, first int, opt PlayOptions) (int, error) {
	rngFor := func(k int) *rand.Rand { return rand.New(rand.NewPCG(opt.Seed, uint64(first+k))) }
	codec := c.codec()
	out := printer{print: opt.Print}
	res, err := client.Play(ctx, conn, c.name, codec, c.build, rngFor, client.Options{
		ReadTimeout: opt.ReadTimeout,
		Log:         opt.Log,
		Wording:     c.wording,
		OnGame: func(g client.Game) {
			if e, ok := codec.(interface{ Errors() []string }); ok {
				for _, msg := range e.Errors() {
					opt.Log.Warn("server error line", "error", msg)
				}
			}
			opt.Log.Debug("game over", gameOver(codec, first, g)...)
			opt.OnEnd(g.End)
			if opt.OnGame != nil {
				opt.OnGame(g)
			}
			out.line(g.Line)
		},
	})
	if err == nil {
		out.trailer(res.Tally)
		if d, ok := codec.(interface{ Dialect() protocol.Dialect }); ok {
			opt.Log.Info("connection done", "dialect", d.Dialect().String(), "games", len(res.Games), "series", res.Series)
		}
	}
	return out.done(len(res.Games), err)
}

// gameOver are the attributes of a game's "game over" record: the shots
// of both sides where the codec counts them.
func gameOver(codec any, first int, g client.Game) []any {
	attrs := []any{"game", first + g.Game + 1, "round", g.Round, "end", g.End.String(), "first", g.First, "told", g.Told}
	if c, ok := codec.(interface{ Shots() [2]int }); ok {
		s := c.Shots()
		attrs = append(attrs, "shots", s[0], "enemy_shots", s[1])
	}
	return attrs
}

// clientHook returns a game's NewClient hook: the AI opt.Player of ais,
// checked by building it for rules (its errors are the user's), made anew
// by adapt for each game's rules, and a codec from newCodec for each
// connection (an error is the user's: bad options).
func clientHook[R client.Placer[P], P, A, O, F any](name string, wording client.Wording, rules func() R, ais aiRoster[R, F], adapt func(F) game.Factory[P, A, O],
	newCodec func(opt ClientOptions) (func() game.ClientCodec[R, P, A, O], error)) func(ClientOptions) (Client, error) {
	return func(opt ClientOptions) (Client, error) {
		codec, err := newCodec(opt)
		if err != nil {
			return nil, err
		}
		if _, err := ais.lookup(opt.Player); err != nil {
			return nil, fmt.Errorf("--player: %w", err)
		}
		// Build once so that bad settings fail before connecting; other
		// rules (submarine-py fields, abilities hellos) are built on demand.
		if _, err := ais.build(opt.Player, rules(), opt.Load); err != nil {
			return nil, fmt.Errorf("--player: %w", err)
		}
		build := func(r R) (game.Factory[P, A, O], error) {
			f, err := ais.build(opt.Player, r, opt.Load)
			if err != nil {
				return nil, err
			}
			return adapt(f), nil
		}
		return &netClient[R, P, A, O]{name: name, wording: wording, codec: codec, build: build}, nil
	}
}
