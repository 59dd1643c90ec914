package extern

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
	"github.com/kaisen-ai/kaisen/game/grid"
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
// loopback port of its own, runs the bots against it and returns the
// server's result in the arena's seats. An error is a failure to set the
// game up (the server or a bot would not start, the replay could not be
// copied) or ctx's end.
func (t *table) PlayContext(ctx context.Context, d arena.Deal) (arena.GameResult, error) {
	res := arena.GameResult{Index: d.Index, Seed: d.Seed, P1Seat: d.P1Seat, Winner: -1}
	tmp, err := os.MkdirTemp("", "kaisen-bot-")
	if err != nil {
		return res, fmt.Errorf("extern: %w", err)
	}
	defer os.RemoveAll(tmp)
	replayDir := ""
	if d.Replay != nil {
		replayDir = filepath.Join(tmp, "replays")
	}
	g := &gameRun{t: t, d: d, bots: t.f.bots(d), finished: make(chan server.Result, 1)}
	g.toArena = [2]int{0, 1} // a pair: the gate seats seat 0's bot first
	if len(g.bots) == 1 {
		g.toArena = [2]int{g.bots[0].seat, 1 - g.bots[0].seat} // the bot is the listener's seat 0
	}
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
	addr := srv.Addrs()[0].(*net.TCPAddr)
	ports := []int{addr.Port}
	if len(g.bots) == 2 {
		if g.gate, err = openGate(addr.String()); err != nil {
			return res, err
		}
		defer g.gate.close()
		ports = g.gate.ports()
	}
	for i, b := range g.bots {
		if b.out, err = t.output(tmp, d, b.role); err != nil {
			return res, err
		}
		defer b.out.Close()
		if b.p, err = startProc(t.f.Limits.argv(b.cmd.expand(addr.IP.String(), ports[i], d.Seed)), b.out); err != nil {
			return res, err
		}
		defer b.p.kill()
	}
	sres, lost, why, err := g.wait(ctx)
	if err != nil {
		return res, err
	}
	outs := g.end()
	if why != "" {
		return g.forfeit(res, lost, why, outs), nil
	}
	res = g.result(res, sres, outs)
	if d.Replay != nil && sres.Replay != "" {
		if err := copyFile(d.Replay, filepath.Join(replayDir, sres.Replay)); err != nil {
			return res, err
		}
	}
	return res, nil
}

// output opens the file that takes the output of the bot in role (p1,
// p2) in game d.
func (t *table) output(tmp string, d arena.Deal, role string) (*os.File, error) {
	dir := tmp
	if t.f.LogDir != "" {
		dir = t.f.LogDir
	}
	return openLog(dir, LogName(d.Index, role))
}

// openLog creates the file name in dir (dir too when missing), or
// truncates it, for a program's output.
func openLog(dir, name string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("extern: log dir: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("extern: output: %w", err)
	}
	return f, nil
}

// LogName is the file name of the output of the bot in role (p1, p2) in
// game index, in Family.LogDir.
func LogName(index int, role string) string { return fmt.Sprintf("game-%06d.%s.log", index, role) }

// seatBot is one program of a game.
type seatBot struct {
	seat int    // its arena seat
	role string // p1 or p2
	cmd  Command
	p    *proc
	out  *os.File
}

// bots are the programs of game d, in arena seat order.
func (f *Family) bots(d arena.Deal) []*seatBot {
	b := &seatBot{seat: f.botSeat(d), role: "p1", cmd: f.Bot}
	if f.BotIsP2 {
		b.role = "p2"
	}
	if f.Bot2.Line == "" {
		return []*seatBot{b}
	}
	o := &seatBot{seat: 1 - b.seat, role: "p2", cmd: f.Bot2}
	if f.BotIsP2 {
		o.role = "p1"
	}
	if b.seat == 1 {
		return []*seatBot{o, b}
	}
	return []*seatBot{b, o}
}

// gameRun is one game of a table: the server's spectator, told the result.
type gameRun struct {
	t        *table
	d        arena.Deal
	bots     []*seatBot // one, or a pair in arena seat order
	gate     *gate      // a pair's
	toArena  [2]int     // the arena seat of each server seat
	shots    [2]int     // by server seat (Step; the game goroutine, before Finished)
	finished chan server.Result
}

var _ server.Spectator = (*gameRun)(nil)

func (g *gameRun) Started(string, game.Public, [2]server.Peer, int) {}

// Step counts the shots of each server seat in Battleship (the arena's
// GameResult.Shots; the abilities game's volleys and answers are not
// counted).
func (g *gameRun) Step(_ string, _ int, e *game.Seen) {
	if g.t.f.Name == server.GameBattleship && e.At != grid.None && e.Seat >= 0 && e.Seat < 2 {
		g.shots[e.Seat]++
	}
}
func (g *gameRun) Finished(res server.Result) {
	select {
	case g.finished <- res:
	default: // one game per server
	}
}

// connected reports whether bot i may have connected: a pair's gate
// knows; a lone bot connects to the server directly.
func (g *gameRun) connected(i int) bool { return g.gate == nil || g.gate.connected[i].Load() }

// wait waits for the game's result: the server's (why ""), or the arena
// seats lost without one and why (a bot exited before its game began, or
// the game timed out). An error is ctx's end.
func (g *gameRun) wait(ctx context.Context) (server.Result, []int, string, error) {
	gctx, cancel := context.WithTimeout(ctx, g.t.f.gameTimeout())
	defer cancel()
	exited := make(chan int, len(g.bots))
	for i, b := range g.bots {
		go func() { // ends with the process, which PlayContext kills before it returns
			<-b.p.done
			exited <- i
		}()
	}
	for {
		select {
		case r := <-g.finished:
			g.grace(ctx, r) // recorded: the bots read their end lines and may exit by themselves
			return r, nil, "", nil
		case i := <-exited:
			if g.connected(i) { // its disconnect ends its game, if it has one
				t := time.NewTimer(exitResultWait)
				select {
				case r := <-g.finished:
					t.Stop()
					g.grace(ctx, r)
					return r, nil, "", nil
				case <-t.C:
				case <-gctx.Done():
					t.Stop()
					return g.timedOut(ctx)
				}
			}
			return server.Result{}, []int{g.bots[i].seat}, server.ReasonDisconnect + ": the bot exited before its game began", nil
		case <-gctx.Done():
			return g.timedOut(ctx)
		}
	}
}

// grace lets the bots of a game that ended without a forfeit (r) exit by
// themselves, for up to exitGrace: a forfeit is decided, and a bot that
// forfeited by hanging would only make every game last longer.
func (g *gameRun) grace(ctx context.Context, r server.Result) {
	if len(r.Forfeits) > 0 {
		return
	}
	t := time.NewTimer(exitGrace)
	defer t.Stop()
	for _, b := range g.bots {
		select {
		case <-b.p.done:
		case <-t.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// timedOut is the end of a game past the game timeout, or ctx's end: the
// bots that never connected lose (the first of a pair, if neither did),
// or every bot when all of them did.
func (g *gameRun) timedOut(ctx context.Context) (server.Result, []int, string, error) {
	if err := ctx.Err(); err != nil {
		return server.Result{}, nil, "", fmt.Errorf("extern: game %d: %w", g.d.Index, err)
	}
	why := fmt.Sprintf("%s: no result within the game timeout %v", server.ReasonTimeout, g.t.f.gameTimeout())
	var lost []int
	for i, b := range g.bots {
		if !g.connected(i) {
			lost = append(lost, b.seat)
			break
		}
	}
	if lost == nil {
		for _, b := range g.bots {
			lost = append(lost, b.seat)
		}
	}
	return server.Result{}, lost, why, nil
}

// end kills what is left of the bots and says how each ended, by arena
// seat.
func (g *gameRun) end() [2]output {
	var outs [2]output
	for _, b := range g.bots {
		select {
		case <-b.p.done:
			outs[b.seat].status = b.p.status()
		default:
		}
		b.p.kill()
		outs[b.seat].line = lastLine(b.out)
	}
	return outs
}

// forfeit is the result of a game that the arena seats lost lost without
// a server result (both: a draw).
func (g *gameRun) forfeit(res arena.GameResult, lost []int, why string, outs [2]output) arena.GameResult {
	for _, s := range lost {
		res.Forfeit[s] = true
		why = withOutput(why, outs[s])
	}
	if len(lost) == 1 {
		res.Winner = 1 - lost[0]
	}
	res.Reason = why
	return res
}

// result is the server's result r in the arena's seats.
func (g *gameRun) result(res arena.GameResult, r server.Result, outs [2]output) arena.GameResult {
	if r.Outcome == server.OutcomeAborted {
		var lost []int
		for _, b := range g.bots {
			lost = append(lost, b.seat)
		}
		return g.forfeit(res, lost, server.ReasonShutdown+": the game was stopped", outs)
	}
	if r.Winner >= 0 {
		res.Winner = g.toArena[r.Winner]
	}
	res.Actions = r.Actions
	for s, n := range g.shots {
		res.Shots[g.toArena[s]] = n
	}
	for _, s := range r.Forfeits {
		res.Forfeit[g.toArena[s]] = true
	}
	if len(r.Forfeits) > 0 {
		why := r.Reason
		if r.Detail != "" {
			why += ": " + r.Detail
		}
		for _, b := range g.bots {
			if res.Forfeit[b.seat] {
				why = withOutput(why, outs[b.seat])
			}
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
		return fmt.Errorf("extern: replay: %w", err)
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("extern: replay: %w", err)
	}
	return nil
}
