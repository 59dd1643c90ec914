package matrix_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/cli"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/server"
)

// watcher is a live view (server.Spectator) that keeps what it is told.
type watcher struct {
	mu       sync.Mutex
	started  map[string]game.Public
	steps    map[string]int
	finished []server.Result
}

func (w *watcher) Started(id string, pub game.Public, _ [2]server.Peer, _ int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.started[id] = pub
}

func (w *watcher) Step(id string, n int, e *game.Seen) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e.Text != "" && n > 0 {
		w.steps[id]++
	}
}

func (w *watcher) Finished(res server.Result) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.finished = append(w.finished, res)
}

// serve starts a server of one listener of game g (opponent: a house AI,
// or server.OpponentPair; n games per pairing) writing replays to dir and
// watched by w; it returns the listener's address. The server stops with the test.
func serve(t *testing.T, g games.Game, opponent string, n int, dir string, w server.Spectator) string {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.Seed, cfg.ReplayDir = 26, dir
	l := &cfg.Listeners[0]
	l.Game, l.Address, l.Opponent, l.Games = g.Name, "127.0.0.1:0", opponent, n
	return start(t, g, cfg, w)
}

// start starts a server of cfg (its first listener's game g) watched by
// w and returns the first listener's address. The server stops with the
// test.
func start(t *testing.T, g games.Game, cfg server.Config, w server.Spectator) string {
	t.Helper()
	srv, err := server.New(cfg, slog.New(slog.DiscardHandler))
	require.NoError(t, err, "the server serves %s", g.Name)
	srv.Watch(w)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	require.Eventually(t, func() bool { return srv.Addrs() != nil }, 10*time.Second, time.Millisecond)
	return srv.Addrs()[0].String()
}

// serverHouseHost: the server serves the game against its house AI
// (PlayDefault), and kaisen play itself (the command) plays it with the
// game's DefaultPlayers[0] over loopback.
func serverHouseHost(t *testing.T, g games.Game) { playHouse(t, g, 1) }

// serverSeriesHost is serverHouseHost with a series of three games on
// the connection.
func serverSeriesHost(t *testing.T, g games.Game) { playHouse(t, g, 3) }

// playHouse plays n games on one connection of kaisen play to a house
// listener of g.
func playHouse(t *testing.T, g games.Game, n int) {
	w := &watcher{started: map[string]game.Public{}, steps: map[string]int{}}
	dir := t.TempDir()
	addr := serve(t, g, g.PlayDefault, n, dir, w)
	var out, errOut bytes.Buffer
	args := []string{"play", "--game", g.Name, "--addr", addr, "--player", g.DefaultPlayers[0], "--seed", "26", "--timeout", "1m", "--json"}
	code := cli.Run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	require.Zero(t, code, "kaisen %s: %s", strings.Join(args, " "), errOut.String())
	var tally struct {
		Games, Wins, Losses, Draws int
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &tally))
	require.Equal(t, n, tally.Games)
	require.Equal(t, n, tally.Wins+tally.Losses+tally.Draws)
	checkServed(t, g, w, dir, n)
}

// loadtestHost runs kaisen loadtest against a house listener of g: six
// games or more (whole series of two), three at once, played by the
// game's network client with its DefaultPlayers[0]; every game is counted
// and none fails, and the server's live view and replays are
// checkServed's.
func loadtestHost(t *testing.T, g games.Game) {
	require.True(t, g.Has(games.ToolLoadtest), "a served game has kaisen loadtest")
	const n, perConn = 6, 2
	w := &watcher{started: map[string]game.Public{}, steps: map[string]int{}}
	dir := t.TempDir()
	addr := serve(t, g, g.PlayDefault, perConn, dir, w)
	out := kaisen(t, "loadtest", "--game", g.Name, "--addr", addr, "--player", g.DefaultPlayers[0], "-n", strconv.Itoa(n),
		"--concurrency", "3", "--seed", "26", "--json")
	var rep struct{ Games, Errors int }
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &rep))
	// Whole series only: a connection that starts plays its series out.
	require.GreaterOrEqual(t, rep.Games, n, out)
	require.Zero(t, rep.Games%perConn, out)
	require.Zero(t, rep.Errors, out)
	checkServed(t, g, w, dir, rep.Games)
}

// serverPairHost: the server pairs two network clients of the game (the
// library's games.Game.NewClient, which kaisen play runs), each playing
// one of the game's default AIs.
func serverPairHost(t *testing.T, g games.Game) {
	w := &watcher{started: map[string]game.Public{}, steps: map[string]int{}}
	dir := t.TempDir()
	addr := serve(t, g, server.OpponentPair, 1, dir, w)
	ends := make([][]protocol.End, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, name := range g.DefaultPlayers {
		c, err := g.NewClient(games.ClientOptions{Player: name})
		require.NoError(t, err)
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { _ = conn.Close() })
		wg.Go(func() {
			opt := games.PlayOptions{Seed: 26 + uint64(i), ReadTimeout: time.Minute, Log: slog.New(slog.DiscardHandler),
				OnEnd: func(e protocol.End) { ends[i] = append(ends[i], e) }}
			_, errs[i] = c.Play(context.Background(), conn, 0, opt)
		})
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	require.Len(t, ends[0], 1)
	require.Len(t, ends[1], 1)
	want := map[protocol.End]protocol.End{protocol.EndWin: protocol.EndLose, protocol.EndLose: protocol.EndWin, protocol.EndDraw: protocol.EndDraw}
	require.Equal(t, want[ends[0][0]], ends[1][0], "the seats agree on the end")
	checkServed(t, g, w, dir, 1)
}

// checkServed: the live view saw each of the n games the server played start,
// had actions and end decided by the rules, and the replay the server
// wrote verifies.
func checkServed(t *testing.T, g games.Game, w *watcher, dir string, n int) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	require.Len(t, w.finished, n)
	for _, res := range w.finished {
		require.Contains(t, []string{server.OutcomeWin, server.OutcomeDraw}, res.Outcome, "%+v", res)
		require.Empty(t, res.Forfeits, "built-in AIs do not forfeit: %+v", res)
		require.Equal(t, g.Name, w.started[res.Game].Game, "the live view saw %s start", res.Game)
		require.Positive(t, w.steps[res.Game], "the live view saw the actions of %s", res.Game)
		require.NotEmpty(t, res.Replay, "every game writes replays (its own format or package jsonrecord's)")
		rp, err := g.OpenReplay(filepath.Join(dir, res.Replay))
		require.NoError(t, err)
		require.NoError(t, rp.Verify())
		require.Positive(t, rp.Moves())
	}
}
