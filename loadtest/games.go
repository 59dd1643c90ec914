package loadtest

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/protocol"
)

// gameClient is the kaisen play client of opts.Game (games.Game.NewClient:
// the one client loop, client.Play, with the game's codec) with the AI
// opts.Player, its game's default one when unset.
func gameClient(opts *Options) (games.Client, error) {
	g, err := games.Lookup(opts.Game)
	if err != nil {
		return nil, err
	}
	if opts.Player == "" {
		opts.Player = g.PlayDefault
	}
	return g.NewClient(games.ClientOptions{Player: opts.Player, Name: opts.Name})
}

// playGame plays every game of one connection with lt.client, timing each
// action's round trip on the connection.
func (lt *loadRun) playGame(nc net.Conn, w *loadWorker) error {
	tc := &turnConn{Conn: nc, w: w}
	_, err := lt.client.Play(context.Background(), tc, 0, games.PlayOptions{
		Seed:        w.rng.Uint64(),
		ReadTimeout: lt.opts.ReadTimeout,
		Log:         slog.New(slog.DiscardHandler),
		OnEnd:       func(protocol.End) {},
		OnGame: func(g client.Game) {
			w.ended(g.End, g.Told)
			lt.finished.Add(1)
		},
	})
	if err != nil {
		return fmt.Errorf("%s: %w", lt.opts.Game, err)
	}
	return nil
}

// turnConn times action round trips for a client of any game: from the
// first write after a "your turn" line (the action, or the answer to a
// question) to the first byte read after it.
type turnConn struct {
	net.Conn
	w    *loadWorker
	turn bool // the bytes read last ended with "your turn"
	sent time.Time
	wait bool
}

func (c *turnConn) Write(b []byte) (int, error) {
	if c.turn {
		c.w.wait()
		c.sent, c.wait, c.turn = time.Now(), true, false
	}
	return c.Conn.Write(b)
}

func (c *turnConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		if c.wait {
			c.w.hist.add(time.Since(c.sent))
			c.wait = false
		}
		// The server sends nothing after "your turn" until the action: the
		// line ends what it sent.
		got := b[:n]
		c.turn = bytes.HasSuffix(got, []byte("\n")) && bytes.HasSuffix(bytes.TrimRight(got, "\r\n"), []byte(protocol.YourTurn))
	}
	return n, err
}
