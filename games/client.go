package games

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/protocol"
)

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
