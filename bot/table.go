package bot

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/server"
)

// table plays one worker's games of a Family.
type table struct {
	f      *Family
	srvLog *slog.Logger
}

var _ arena.ContextTable = (*table)(nil)

// exitResultWait is how long a bot's game may take to be recorded after
// the bot exited: a bot that connected has its game recorded (as its
// disconnect) within it; one that never connected has none.
const exitResultWait = 500 * time.Millisecond

// Play implements arena.Table.
func (t *table) Play(d arena.Deal) (arena.GameResult, error) {
	return t.PlayContext(context.Background(), d)
}

// PlayContext implements arena.ContextTable: it serves the game d on a
// loopback port of its own, runs the bot against it and returns the
// server's result in the arena's seats. An error is a failure to set the
// game up (the server or the shell would not start, the replay could not
// be copied) or ctx's end.
func (t *table) PlayContext(ctx context.Context, d arena.Deal) (arena.GameResult, error) {
	res := arena.GameResult{Index: d.Index, Seed: d.Seed, P1Seat: d.P1Seat, Winner: -1}
	tmp, err := os.MkdirTemp("", "kaisen-bot-")
	if err != nil {
		return res, fmt.Errorf("bot: %w", err)
	}
	defer os.RemoveAll(tmp)
	replayDir := ""
	if d.Replay != nil {
		replayDir = filepath.Join(tmp, "replays")
	}
	g := &gameRun{t: t, d: d, bs: t.f.botSeat(d), finished: make(chan server.Result, 1)}
	srv, err := server.New(t.f.config(d, replayDir), t.srvLog)
	if err != nil {
		return res, err
	}
	srv.Watch(g)
	if err := srv.Listen(); err != nil {
		return res, err
	}
	sctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx) }()
	defer func() { stop(); <-served }()

	out, err := t.output(tmp, d)
	if err != nil {
		return res, err
	}
	defer out.Close()
	addr := srv.Addrs()[0].(*net.TCPAddr)
	p, err := startProc(t.f.Limits.script(t.f.Bot.expand(addr.IP.String(), addr.Port, d.Seed)), out)
	if err != nil {
		return res, err
	}
	defer p.kill()
	sres, why, err := g.wait(ctx, p)
	if err != nil {
		return res, err
	}
	ended := "" // how the bot ended, when it did by itself
	select {
	case <-p.done:
		ended = p.status()
	default:
	}
	p.kill()
	last := output{status: ended, line: lastLine(out)}
	if why != "" {
		return g.forfeit(res, why, last), nil
	}
	res = g.result(res, sres, last)
	if d.Replay != nil && sres.Replay != "" {
		if err := copyFile(d.Replay, filepath.Join(replayDir, sres.Replay)); err != nil {
			return res, err
		}
	}
	return res, nil
}

// output opens the file that takes the bot's output in game d.
func (t *table) output(tmp string, d arena.Deal) (*os.File, error) {
	dir := tmp
	if t.f.LogDir != "" {
		if err := os.MkdirAll(t.f.LogDir, 0o755); err != nil {
			return nil, fmt.Errorf("bot: log dir: %w", err)
		}
		dir = t.f.LogDir
	}
	f, err := os.OpenFile(filepath.Join(dir, LogName(d.Index)), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("bot: output: %w", err)
	}
	return f, nil
}

// LogName is the file name of game index's bot output in Family.LogDir.
func LogName(index int) string { return fmt.Sprintf("game-%06d.log", index) }

// gameRun is one game of a table: the server's spectator, told the result.
type gameRun struct {
	t        *table
	d        arena.Deal
	bs       int // the bot's arena seat
	finished chan server.Result
}

var _ server.Spectator = (*gameRun)(nil)

func (g *gameRun) Started(string, game.Public, [2]server.Peer, int) {}
func (g *gameRun) Step(string, int, *game.Seen)                     {}
func (g *gameRun) Finished(res server.Result) {
	select {
	case g.finished <- res:
	default: // one game per server
	}
}

// wait waits for the game's result: the server's (why ""), or the reason
// the bot forfeits without one (it exited before connecting, or the game
// timed out). An error is ctx's end.
func (g *gameRun) wait(ctx context.Context, p *proc) (server.Result, string, error) {
	gctx, cancel := context.WithTimeout(ctx, g.t.f.gameTimeout())
	defer cancel()
	stopped := func() (server.Result, string, error) {
		if err := ctx.Err(); err != nil {
			return server.Result{}, "", fmt.Errorf("bot: game %d: %w", g.d.Index, err)
		}
		return server.Result{}, fmt.Sprintf("%s: no result within the game timeout %v", server.ReasonTimeout, g.t.f.gameTimeout()), nil
	}
	select {
	case r := <-g.finished:
		// Recorded: the bot reads its end lines and may exit by itself.
		t := time.NewTimer(exitGrace)
		defer t.Stop()
		select {
		case <-p.done:
		case <-t.C:
		case <-ctx.Done():
		}
		return r, "", nil
	case <-p.done:
		t := time.NewTimer(exitResultWait)
		defer t.Stop()
		select {
		case r := <-g.finished:
			return r, "", nil
		case <-t.C:
			return server.Result{}, server.ReasonDisconnect + ": the bot exited before its game began", nil
		case <-gctx.Done():
			return stopped()
		}
	case <-gctx.Done():
		return stopped()
	}
}

// forfeit is the result of a game the bot lost without a server result.
func (g *gameRun) forfeit(res arena.GameResult, why string, last output) arena.GameResult {
	res.Winner = 1 - g.bs
	res.Forfeit[g.bs] = true
	res.Reason = withOutput(why, last)
	return res
}

// result is the server's result r in the arena's seats: the server's seat
// 0 is the bot.
func (g *gameRun) result(res arena.GameResult, r server.Result, last output) arena.GameResult {
	seat := func(s int) int {
		if s == 0 {
			return g.bs
		}
		return 1 - g.bs
	}
	if r.Outcome == server.OutcomeAborted {
		return g.forfeit(res, server.ReasonShutdown+": the game was stopped", last)
	}
	if r.Winner >= 0 {
		res.Winner = seat(r.Winner)
	}
	res.Actions = r.Actions
	for _, s := range r.Forfeits {
		res.Forfeit[seat(s)] = true
	}
	if len(r.Forfeits) > 0 {
		why := r.Reason
		if r.Detail != "" {
			why += ": " + r.Detail
		}
		if res.Forfeit[g.bs] {
			why = withOutput(why, last)
		}
		res.Reason = why
	}
	return res
}

// output is how a bot ended: its exit status when it exited by itself
// ("" when its group was killed) and its last line of output.
type output struct{ status, line string }

// withOutput adds how the bot ended to a forfeit reason.
func withOutput(why string, last output) string {
	var parts []string
	if last.status != "" {
		parts = append(parts, "bot: "+last.status)
	}
	if last.line != "" {
		parts = append(parts, fmt.Sprintf("its last output: %q", last.line))
	}
	if len(parts) == 0 {
		return why
	}
	return why + " (" + strings.Join(parts, "; ") + ")"
}

// copyFile copies the file at path to w.
func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("bot: replay: %w", err)
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("bot: replay: %w", err)
	}
	return nil
}
