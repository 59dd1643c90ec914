package games

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"time"

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

// finished reports one game a Client played to its end (one game per
// connection): the server's error lines as warnings, the end with attrs
// at debug level, then OnEnd and Print. It returns Play's values.
func finished(opt PlayOptions, errLines []string, end protocol.End, line string, attrs ...any) (int, error) {
	for _, msg := range errLines {
		opt.Log.Warn("server error line", "error", msg)
	}
	opt.Log.Debug("game over", append([]any{"end", end.String()}, attrs...)...)
	opt.OnEnd(end)
	if opt.Print != nil {
		if err := opt.Print(line); err != nil {
			return 1, fmt.Errorf("write output: %w", err)
		}
	}
	return 1, nil
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
