package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// readLine reads one line (without "\n") with a deadline.
func readLine(t *testing.T, r *bufio.Reader, c net.Conn) string {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	s, err := r.ReadString('\n')
	require.NoError(t, err)
	return strings.TrimSuffix(s, "\n")
}

// requireEOF checks that the server closes c without sending anything more.
func requireEOF(t *testing.T, c net.Conn) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := c.Read(make([]byte, 1))
	require.Equal(t, 0, n)
	require.True(t, errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET), "want EOF, got %v", err)
}

// requireRefused checks that the server refuses c with the one line that
// names the limit, then closes it.
func requireRefused(t *testing.T, c net.Conn, reason string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(c)
	require.NoError(t, err)
	require.Equal(t, "refused: "+reason+"\n", string(b))
}

func TestHouseBotServesTwoClientsAtOnce(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.Listeners[0].Opponent = "random"
	ts := startServer(t, cfg)
	rules := submarine.DefaultRules()

	// A connects and holds its game open in the handshake ...
	a, err := net.Dial("tcp", ts.addr(0))
	require.NoError(t, err)
	defer a.Close()
	ar := bufio.NewReader(a)
	require.Equal(t, greet, readLine(t, ar, a))
	// ... while B plays a whole game against its own house AI.
	ends, err := randomClient(ts.addr(0), protocol.Classic, rules, 5, "")
	require.NoError(t, err)
	require.Len(t, ends, 1)
	require.Contains(t, []string{ReasonSunk, ReasonDrawLimit}, ts.waitResults(t, 1)[0].Reason, "B's game ended while A's was open")
	// Then A plays its game to the end.
	_, err = io.WriteString(a, p1Place+"\n")
	require.NoError(t, err)
	require.Equal(t, "your turn", readLine(t, ar, a), "the client moves first (first-connected)")
	a.Close()
	rs := ts.waitResults(t, 2)
	for _, r := range rs {
		require.Equal(t, Peer{Addr: "house", Name: "random"}, r.Players[1])
		require.True(t, strings.HasPrefix(r.Players[0].Addr, "127.0.0.1:"))
		verifyReplay(t, ts, r)
	}
	require.Equal(t, ReasonDisconnect, rs[1].Reason)
	require.Equal(t, 1, rs[1].Winner)
	require.NotEqual(t, rs[0].Seed, rs[1].Seed)
}

func TestManyConcurrentHouseGames(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.Listeners[0].Opponent = "random"
	cfg.Listeners = append(cfg.Listeners, ListenerConfig{Name: "py", Address: "127.0.0.1:0", Dialect: "submarine-py", Width: 6, Height: 5, Rounded: true, Opponent: "random", First: FirstRandom})
	ts := startServer(t, cfg)
	pyRules := submarine.DefaultRules()
	pyRules.Board = grid.MustBoard(6, 5, []grid.Cell{0, 5, 24, 29})
	n := 8
	if race.Enabled || testing.Short() {
		n = 3
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() {
			_, err := randomClient(ts.addr(0), protocol.Classic, submarine.DefaultRules(), uint64(i), "")
			errs <- err
		})
		wg.Go(func() {
			_, err := randomClient(ts.addr(1), protocol.SubmarinePy, pyRules, uint64(i), fmt.Sprintf("client%d", i))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	rs := ts.waitResults(t, 2*n)
	names := map[string]bool{}
	for _, r := range rs {
		require.Contains(t, []string{OutcomeWin, OutcomeDraw}, r.Outcome)
		require.Contains(t, []string{ReasonSunk, ReasonDrawLimit}, r.Reason)
		if r.Listener == "py" {
			names[r.Players[0].Name] = true
			require.Equal(t, "submarine-py", r.Dialect)
		}
		verifyReplay(t, ts, r)
	}
	require.Len(t, names, n)
}

func TestSeriesWithRandomClients(t *testing.T) {
	for _, tt := range []struct {
		first string
		want  []int
	}{
		{FirstConnected, []int{0, 0, 0, 0, 0}},
		{FirstAlternate, []int{0, 1, 0, 1, 0}},
		{FirstSecond, []int{1, 1, 1, 1, 1}},
		{FirstHalves, []int{0, 0, 0, 1, 1}},
	} {
		t.Run(tt.first, func(t *testing.T) {
			checkLeaks(t)
			cfg := testConfig(t)
			cfg.Listeners[0].Games = 5
			cfg.Listeners[0].First = tt.first
			ts := startServer(t, cfg)
			rules := submarine.DefaultRules()
			var ends [2][]protocol.End
			errs := make(chan error, 2)
			conns := make(chan struct{})
			for p := range 2 {
				go func() {
					if p == 1 {
						<-conns // P1 connects first
					}
					var err error
					ends[p], err = randomClient(ts.addr(0), protocol.Classic, rules, uint64(p+1), "")
					errs <- err
				}()
				if p == 0 {
					waitConns(t, ts, 1)
					close(conns)
				}
			}
			require.NoError(t, <-errs)
			require.NoError(t, <-errs)
			rs := ts.waitResults(t, 5)
			require.Len(t, ends[0], 5)
			var firsts []int
			for k, r := range rs {
				require.Equal(t, k+1, r.Round)
				require.Equal(t, 5, r.Rounds)
				firsts = append(firsts, r.First)
				want := [2]protocol.End{protocol.EndDraw, protocol.EndDraw}
				if r.Outcome == OutcomeWin {
					want[r.Winner], want[1-r.Winner] = protocol.EndWin, protocol.EndLose
				}
				require.Equal(t, want, [2]protocol.End{ends[0][k], ends[1][k]}, "game %d", k+1)
				require.True(t, strings.HasSuffix(r.Game, fmt.Sprintf(".%d", k+1)), r.Game)
				verifyReplay(t, ts, r)
			}
			require.Equal(t, tt.want, firsts)
		})
	}
}

// waitConns waits until the server has n open client connections.
func waitConns(t *testing.T, ts *testServer, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for ts.metrics.connsOpen.Load() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections open, want %d", ts.metrics.connsOpen.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestFirstSeat(t *testing.T) {
	for _, tt := range []struct {
		first string
		games int
		want  []int
	}{
		{FirstConnected, 4, []int{0, 0, 0, 0}},
		{FirstAlternate, 4, []int{0, 1, 0, 1}},
		{FirstHalves, 4, []int{0, 0, 1, 1}},
		{FirstHalves, 3, []int{0, 0, 1}},
		{FirstHalves, 1, []int{0}},
	} {
		m := &match{st: &setup{cfg: ListenerConfig{First: tt.first, Games: tt.games}}}
		var got []int
		for k := 1; k <= tt.games; k++ {
			got = append(got, m.firstSeat(k, nil))
		}
		require.Equal(t, tt.want, got, "%s over %d games", tt.first, tt.games)
	}
}

func TestDeterministicBySeed(t *testing.T) {
	checkLeaks(t)
	run := func() []Result {
		cfg := testConfig(t)
		cfg.Seed = 42
		cfg.Listeners[0].Opponent = "random"
		cfg.Listeners[0].First = FirstRandom
		ts := startServer(t, cfg)
		for i := range 3 {
			_, err := randomClient(ts.addr(0), protocol.Classic, submarine.DefaultRules(), uint64(100+i), "")
			require.NoError(t, err)
		}
		rs := ts.waitResults(t, 3)
		ts.stop(t)
		return rs
	}
	a, b := run(), run()
	for i := range a {
		require.Equal(t, a[i].Seed, b[i].Seed)
		require.Equal(t, a[i].First, b[i].First)
		require.Equal(t, a[i].Actions, b[i].Actions)
		require.Equal(t, a[i].Winner, b[i].Winner)
	}
	require.NotEqual(t, a[0].Seed, a[1].Seed)
}

func TestLobbyClientLeaves(t *testing.T) {
	checkLeaks(t)
	ts := startServer(t, testConfig(t))
	gone, err := net.Dial("tcp", ts.addr(0))
	require.NoError(t, err)
	waitConns(t, ts, 1)
	require.NoError(t, gone.Close())
	waitConns(t, ts, 0) // the lobby watcher noticed
	sec := findSection(t, loadTranscript(t, referenceTranscript), "1. SCRIPTED GAME")
	require.NoError(t, runSection(ts.addr(0), sec, nil))
	require.Contains(t, ts.logs.String(), "client left while waiting for an opponent")
}

// TestLimits: each limit refuses the connection over it with one line
// naming the limit ("refused: max_games"), then closes it.
func TestLimits(t *testing.T) {
	t.Run("per IP", func(t *testing.T) {
		checkLeaks(t)
		cfg := testConfig(t)
		cfg.Limits.MaxConnectionsPerIP = 2
		ts := startServer(t, cfg)
		pair := dialPair(t, ts.addr(0))
		waitConns(t, ts, 2)
		c, err := net.Dial("tcp", ts.addr(0))
		require.NoError(t, err)
		defer c.Close()
		requireRefused(t, c, rejectPerIP)
		require.Equal(t, int64(1), ts.metrics.rejected[rejectPerIP].Load())
		pair[0].Close()
		pair[1].Close()
	})
	t.Run("max connections", func(t *testing.T) {
		checkLeaks(t)
		cfg := testConfig(t)
		cfg.Limits.MaxConnections = 1
		cfg.Listeners[0].Opponent = "random"
		ts := startServer(t, cfg)
		a, err := net.Dial("tcp", ts.addr(0))
		require.NoError(t, err)
		defer a.Close()
		ar := bufio.NewReader(a)
		require.Equal(t, greet, readLine(t, ar, a))
		b, err := net.Dial("tcp", ts.addr(0))
		require.NoError(t, err)
		defer b.Close()
		requireRefused(t, b, rejectMaxConns)
		require.Equal(t, int64(1), ts.metrics.rejected[rejectMaxConns].Load())
	})
	t.Run("max games", func(t *testing.T) {
		checkLeaks(t)
		cfg := testConfig(t)
		cfg.Limits.MaxGames = 1
		ts := startServer(t, cfg)
		// Game 1 is running (in its handshake).
		g1 := dialPair(t, ts.addr(0))
		for _, c := range g1 {
			require.Equal(t, greet, readLine(t, bufio.NewReader(c), c))
		}
		// C waits in the lobby; D would start a second game: refused.
		c, err := net.Dial("tcp", ts.addr(0))
		require.NoError(t, err)
		defer c.Close()
		waitConns(t, ts, 3)
		d, err := net.Dial("tcp", ts.addr(0))
		require.NoError(t, err)
		defer d.Close()
		requireRefused(t, d, rejectMaxGames)
		require.Equal(t, int64(1), ts.metrics.rejected[rejectMaxGames].Load())
		// Game 1 ends (both leave); E pairs with C.
		g1[0].Close()
		g1[1].Close()
		ts.waitResults(t, 1)
		waitConns(t, ts, 1)
		e, err := net.Dial("tcp", ts.addr(0))
		require.NoError(t, err)
		defer e.Close()
		require.Equal(t, greet, readLine(t, bufio.NewReader(c), c))
		require.Equal(t, greet, readLine(t, bufio.NewReader(e), e))
	})
}

func TestGracefulShutdown(t *testing.T) {
	checkLeaks(t)
	ts := startServer(t, testConfig(t))
	sec := findSection(t, loadTranscript(t, referenceTranscript), "1. SCRIPTED GAME")
	gate := make(chan struct{})
	done := make(chan error, 1)
	conns := dialPair(t, ts.addr(0))
	go func() {
		errs := make(chan error, 2)
		go func() { errs <- script(conns[0], sec.events[0], gate) }()
		go func() { errs <- script(conns[1], sec.events[1], nil) }()
		done <- errors.Join(<-errs, <-errs)
	}()
	waitConns(t, ts, 2)
	lonely, err := net.Dial("tcp", ts.addr(0))
	require.NoError(t, err)
	defer lonely.Close()
	waitConns(t, ts, 3)

	ts.cancel() // SIGINT
	requireEOF(t, lonely)
	// No new connections once the listener is closed.
	require.Eventually(t, func() bool {
		c, err := net.Dial("tcp", ts.addr(0))
		if err == nil {
			c.Close()
		}
		return err != nil
	}, 10*time.Second, time.Millisecond)
	// The running game finishes normally within the grace period.
	close(gate)
	require.NoError(t, <-done)
	ts.stop(t)
	rs := ts.results(t)
	require.Len(t, rs, 1)
	require.Equal(t, ReasonSunk, rs[0].Reason)
}

func TestShutdownGraceOver(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.ShutdownGrace = 100 * time.Millisecond
	ts := startServer(t, cfg)
	conns := dialPair(t, ts.addr(0))
	for _, c := range conns {
		require.Equal(t, greet, readLine(t, bufio.NewReader(c), c))
	}
	start := time.Now()
	ts.stop(t)
	require.Less(t, time.Since(start), 5*time.Second)
	for _, c := range conns {
		requireEOF(t, c)
	}
	rs := ts.results(t)
	require.Len(t, rs, 1)
	require.Equal(t, OutcomeAborted, rs[0].Outcome)
	require.Equal(t, ReasonShutdown, rs[0].Reason)
	require.Zero(t, rs[0].Actions)
	rp := verifyReplay(t, ts, rs[0]) // aborted in the handshake: no placement, no step
	require.Equal(t, replay.OutcomeAborted, rp.Result.Outcome)
	require.Empty(t, rp.Steps)
}

// TestShutdownGraceOverKeepsPartialReplay: a game still running when the
// shutdown grace is over is logged with the actions really played and
// gets a replay of them, marked aborted (it had neither before).
func TestShutdownGraceOverKeepsPartialReplay(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.ShutdownGrace = 100 * time.Millisecond
	cfg.Listeners[0].Opponent = "random"
	ts := startServer(t, cfg)
	reached, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := playRandom(ts.addr(0), protocol.Classic, submarine.DefaultRules(), 3, "", clientOpts{
			quitAfter: 4, // thinks forever on its 4th turn: 3 actions each played
			atQuit:    func() { close(reached); <-release },
		})
		done <- err
	}()
	<-reached
	ts.stop(t)
	close(release)
	require.ErrorIs(t, <-done, errQuit)
	rs := ts.results(t)
	require.Len(t, rs, 1)
	require.Equal(t, OutcomeAborted, rs[0].Outcome)
	require.Equal(t, ReasonShutdown, rs[0].Reason)
	require.Equal(t, 6, rs[0].Actions, "the actions really played")
	rp := verifyReplay(t, ts, rs[0])
	require.Equal(t, replay.OutcomeAborted, rp.Result.Outcome)
	require.Len(t, rp.Steps, 6)
	require.Empty(t, rp.Result.Forfeits)
}

func TestClose(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	s, err := New(cfg, nil)
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background()) }()
	require.Eventually(t, func() bool { return s.Addrs() != nil }, 10*time.Second, time.Millisecond)
	conns := dialPair(t, s.Addrs()[0].String())
	for _, c := range conns {
		require.Equal(t, greet, readLine(t, bufio.NewReader(c), c))
	}
	require.NoError(t, s.Close())
	require.ErrorIs(t, <-done, ErrServerClosed)
	for _, c := range conns {
		requireEOF(t, c)
	}
	require.ErrorIs(t, s.Serve(context.Background()), ErrServerClosed)

	// Close before Serve releases what Listen opened.
	s2, err := New(testConfig(t), nil)
	require.NoError(t, err)
	require.NoError(t, s2.Listen())
	addr := s2.Addrs()[0].String()
	require.NoError(t, s2.Close())
	_, err = net.Dial("tcp", addr)
	require.Error(t, err)
}

func TestListenErrors(t *testing.T) {
	checkLeaks(t)
	ts := startServer(t, testConfig(t))
	cfg := testConfig(t)
	cfg.Listeners[0].Address = ts.addr(0) // taken
	s, err := New(cfg, nil)
	require.NoError(t, err)
	require.ErrorContains(t, s.Listen(), "address already in use")

	cfg = testConfig(t)
	cfg.ResultLog = filepath.Join(t.TempDir(), "no", "such", "dir", "r.jsonl")
	s, err = New(cfg, nil)
	require.NoError(t, err)
	require.ErrorContains(t, s.Listen(), "result log")
}

func TestNonLoopbackWarning(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.Listeners[0].Address = "0.0.0.0:0"
	ts := startServer(t, cfg)
	require.Contains(t, ts.logs.String(), "binding a non-loopback address")

	ts2 := startServer(t, testConfig(t))
	require.NotContains(t, ts2.logs.String(), "non-loopback")
}

func TestNoDelay(t *testing.T) {
	checkLeaks(t)
	noDelay := func(c net.Conn) int {
		raw, err := c.(*net.TCPConn).SyscallConn()
		require.NoError(t, err)
		var v int
		var serr error
		require.NoError(t, raw.Control(func(fd uintptr) {
			v, serr = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_NODELAY)
		}))
		require.NoError(t, serr)
		return v
	}
	// newConn turns Nagle off even when it was on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	cli, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer cli.Close()
	srv, err := ln.Accept()
	require.NoError(t, err)
	defer srv.Close()
	require.NoError(t, srv.(*net.TCPConn).SetNoDelay(false))
	require.Equal(t, 0, noDelay(srv))
	newConn(srv, 1024, time.Second)
	require.NotEqual(t, 0, noDelay(srv))

	// Every connection the server accepts has it on.
	cfg := testConfig(t)
	cfg.Listeners[0].Opponent = "random"
	s, err := New(cfg, nil)
	require.NoError(t, err)
	var mu sync.Mutex
	var seen []int
	s.connHook = func(c net.Conn) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, noDelay(c))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	require.Eventually(t, func() bool { return s.Addrs() != nil }, 10*time.Second, time.Millisecond)
	for i := range 3 {
		_, err := randomClient(s.Addrs()[0].String(), protocol.Classic, submarine.DefaultRules(), uint64(i), "")
		require.NoError(t, err)
	}
	cancel()
	require.NoError(t, <-done)
	require.Len(t, seen, 3)
	for _, v := range seen {
		require.NotEqual(t, 0, v)
	}
}

func TestMetricsEndpoint(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.Metrics = "127.0.0.1:0"
	ts := startServer(t, cfg)
	require.NoError(t, runSection(ts.addr(0), findSection(t, loadTranscript(t, kaisenTranscripts), "badjson"), nil))
	require.NoError(t, runSection(ts.addr(0), findSection(t, loadTranscript(t, referenceTranscript), "1. SCRIPTED GAME"), nil))
	ts.waitResults(t, 2)
	base := "http://" + ts.MetricsAddr().String()
	client := &http.Client{Timeout: 10 * time.Second}
	get := func(path string) string {
		resp, err := client.Get(base + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return string(b)
	}
	require.Equal(t, "ok\n", get("/healthz"))
	require.Eventually(t, func() bool { return strings.Contains(get("/metrics"), "kaisen_games_running 0") }, 10*time.Second, 5*time.Millisecond)
	body := get("/metrics")
	for _, want := range []string{
		"# TYPE kaisen_games_finished_total counter",
		`kaisen_games_finished_total{outcome="win"} 2`,
		`kaisen_forfeits_total{reason="protocol"} 1`,
		`kaisen_forfeits_total{reason="timeout"} 0`,
		"kaisen_actions_total 18",
		"kaisen_games_running 0",
		"kaisen_connections_accepted_total 4",
		"# TYPE kaisen_actions_per_second gauge",
		"# TYPE go_goroutines gauge", // the client library's runtime and process metrics
		"# TYPE process_cpu_seconds_total counter",
	} {
		require.Contains(t, body, want)
	}
}

func TestResultLogGroupCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"game":"old"}`+"\n"), 0o644))
	rl, torn, err := openResultLog(path)
	require.NoError(t, err)
	require.Nil(t, torn)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			torn, err := rl.append(&Result{Game: fmt.Sprintf("g%d", i), Detail: strings.Repeat("x", 5000)})
			require.NoError(t, err)
			require.Nil(t, torn)
		})
	}
	wg.Wait()
	require.NoError(t, rl.close())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	require.Len(t, lines, 51)
	require.Equal(t, `{"game":"old"}`, lines[0])
	seen := map[string]bool{}
	for _, l := range lines[1:] {
		var r Result
		require.NoError(t, json.Unmarshal([]byte(l), &r))
		seen[r.Game] = true
	}
	require.Len(t, seen, 50)
}

// TestWriteFileDurable: a file is written whole and never replaces an
// existing one (two servers sharing a replay directory lose nothing).
func TestWriteFileDurable(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, writeFileDurable(dir, "a.jsonl", []byte("one\n")))
	err := writeFileDurable(dir, "a.jsonl", []byte("two\n"))
	require.ErrorIs(t, err, fs.ErrExist)
	b, err := os.ReadFile(filepath.Join(dir, "a.jsonl"))
	require.NoError(t, err)
	require.Equal(t, "one\n", string(b), "the first file is kept")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file left")
	require.Error(t, writeFileDurable(filepath.Join(dir, "missing"), "b", nil))

	// Without hard links: created exclusively, never over a file either.
	linkFile = func(string, string) error { return &os.LinkError{Op: "link", Err: syscall.EPERM} }
	defer func() { linkFile = os.Link }()
	require.NoError(t, writeFileDurable(dir, "c.jsonl", []byte("three\n")))
	require.ErrorIs(t, writeFileDurable(dir, "c.jsonl", []byte("four\n")), fs.ErrExist)
	b, err = os.ReadFile(filepath.Join(dir, "c.jsonl"))
	require.NoError(t, err)
	require.Equal(t, "three\n", string(b))
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2, "no temporary file left")
}

// TestStartupRecovery: at start, the temporary files a crash left in the
// replay directory are removed (replays and other files are kept) and a
// torn last line of the result log is cut off; each repair is logged.
func TestStartupRecovery(t *testing.T) {
	dir := t.TempDir()
	files := map[string]bool{ // name: kept
		"g-1.jsonl":             true,
		".g-2.jsonl.tmp-123456": false,
		".g-3.jsonl.tmp-":       false,
		"notes.txt":             true,
		".hidden":               true,
		"g-4.jsonl.tmp-1":       true, // not a dot file: not ours
	}
	old := time.Now().Add(-2 * tempMaxAge)
	for n := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644))
		require.NoError(t, os.Chtimes(filepath.Join(dir, n), old, old))
	}
	// A young temporary file may be another server's, being written: kept.
	young := ".g-5.jsonl.tmp-999"
	require.NoError(t, os.WriteFile(filepath.Join(dir, young), []byte("x"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".d.tmp-1"), 0o755))
	cfg := testConfig(t)
	cfg.ReplayDir = dir
	require.NoError(t, os.WriteFile(cfg.ResultLog, []byte(`{"game":"a"}`+"\n"+`{"game":"b","li`), 0o644))
	ts := startServer(t, cfg)
	b, err := os.ReadFile(cfg.ResultLog)
	require.NoError(t, err)
	require.Equal(t, `{"game":"a"}`+"\n", string(b))
	for n, kept := range files {
		_, err := os.Stat(filepath.Join(dir, n))
		require.Equal(t, kept, err == nil, "%s kept=%t, err %v", n, kept, err)
	}
	_, err = os.Stat(filepath.Join(dir, ".d.tmp-1"))
	require.NoError(t, err, "directories are left alone")
	_, err = os.Stat(filepath.Join(dir, young))
	require.NoError(t, err, "a young temporary file is kept")
	logs := logRecords(t, ts.logs.String())
	require.True(t, hasLog(logs, func(r map[string]any) bool {
		return r["level"] == "WARN" && r["line"] == `{"game":"b","li` && strings.Contains(r["msg"].(string), "torn last line")
	}), "the repair of the result log is logged")
	for _, n := range []string{".g-2.jsonl.tmp-123456", ".g-3.jsonl.tmp-"} {
		require.True(t, hasLog(logs, func(r map[string]any) bool {
			return r["level"] == "WARN" && r["file"] == n && strings.Contains(r["msg"].(string), "temporary replay")
		}), "the removal of %s is logged", n)
	}
}

// TestRunIDsUnique: servers started in the same second with the same seed
// get different run ids, so their game ids and replay names never collide.
func TestRunIDsUnique(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	for range 1000 {
		id := newRunID(now)
		require.Regexp(t, `^20260101T000000Z-[0-9a-f]{16}$`, id)
		require.False(t, seen[id], "run id %s twice", id)
		seen[id] = true
	}
}

// TestSharedReplayDirLosesNothing: two servers with the same seed, started
// at once and sharing the result log and the replay directory, each play
// games; every game has its own id, line and replay file.
func TestSharedReplayDirLosesNothing(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.Listeners[0].Opponent = "random"
	a, b := startServer(t, cfg), startServer(t, cfg)
	rules := submarine.DefaultRules()
	for i, ts := range []*testServer{a, b, a, b} {
		_, err := randomClient(ts.addr(0), protocol.Classic, rules, uint64(i), "")
		require.NoError(t, err)
	}
	a.stop(t)
	b.stop(t)
	rs := a.results(t)
	require.Len(t, rs, 4)
	games := map[string]bool{}
	for _, r := range rs {
		require.False(t, games[r.Game], "game id %s twice", r.Game)
		games[r.Game] = true
		require.Equal(t, r.Game+".jsonl", r.Replay)
		_, err := os.Stat(filepath.Join(cfg.ReplayDir, r.Replay))
		require.NoError(t, err)
	}
	ents, err := os.ReadDir(cfg.ReplayDir)
	require.NoError(t, err)
	require.Len(t, ents, 4)
}

func TestClassify(t *testing.T) {
	rules := submarine.DefaultRules()
	_, _, fleetErr := subwire.DecodePlacement([]byte(`{"w":[0,0],"c":[0,0],"s":[1,1]}`), rules)
	_, syntaxErr := subwire.DecodeAction([]byte(`hello`), rules)
	for _, tt := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("placement: %w", fleetErr), ReasonPlacement},
		{fmt.Errorf("action: %w", syntaxErr), ReasonProtocol},
		{protocol.NewProtocolError([]byte("xx"), protocol.ErrLineTooLong), ReasonLineTooLong},
		{fmt.Errorf("read: %w", os.ErrDeadlineExceeded), ReasonTimeout},
		{io.EOF, ReasonDisconnect},
		{fmt.Errorf("%w: boom", errPanic), ReasonPanic},
	} {
		require.Equal(t, tt.want, classify(tt.err), "%v", tt.err)
	}
}

// panicky is a house AI that panics on its first action.
type panicky struct{ players.Player }

func (panicky) Act() submarine.Action { panic("boom") }

func TestHouseAIPanicLosesOnlyItsGame(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.Listeners[0].Opponent = "random"
	cfg.Listeners = append(cfg.Listeners, ListenerConfig{Name: "sane", Address: "127.0.0.1:0", Opponent: "random"})
	logs := &logBuf{}
	s, err := New(cfg, slog.New(slog.NewJSONHandler(logs, nil)))
	require.NoError(t, err)
	rules := subRules(t, s.setups[0])
	subServed(t, s.setups[0]).house = players.Adapt(func(rng *rand.Rand) players.Player { return panicky{players.NewRandom(rules, rng)} })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	require.Eventually(t, func() bool { return s.Addrs() != nil }, 10*time.Second, time.Millisecond)

	ends, err := randomClient(s.Addrs()[0].String(), protocol.Classic, rules, 1, "")
	require.NoError(t, err)
	require.Equal(t, []protocol.End{protocol.EndWin}, ends)
	ends, err = randomClient(s.Addrs()[1].String(), protocol.Classic, rules, 2, "")
	require.NoError(t, err)
	require.Len(t, ends, 1)
	cancel()
	require.NoError(t, <-done)
	b, err := os.ReadFile(cfg.ResultLog)
	require.NoError(t, err)
	require.Contains(t, string(b), `"reason":"panic"`)
	require.Contains(t, logs.String(), "boom")
}

// TestResultLogRepairsTornTail: a last line without its newline (a write cut
// short by a power loss) is cut off when the log is opened again, so that
// the next record starts on a line of its own.
func TestResultLogRepairsTornTail(t *testing.T) {
	for _, tt := range []struct{ name, before, want, torn string }{
		{"empty", "", "", ""},
		{"whole", `{"game":"a"}` + "\n", `{"game":"a"}` + "\n", ""},
		{"torn", `{"game":"a"}` + "\n" + `{"game":"b","li`, `{"game":"a"}` + "\n", `{"game":"b","li`},
		{"only torn", `{"ga`, "", `{"ga`},
		{"long torn", `{"game":"a"}` + "\n" + strings.Repeat("x", 10000), `{"game":"a"}` + "\n", strings.Repeat("x", maxTornShown)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.jsonl")
			require.NoError(t, os.WriteFile(path, []byte(tt.before), 0o644))
			rl, torn, err := openResultLog(path)
			require.NoError(t, err)
			require.Equal(t, tt.torn, string(torn), "the torn line is returned for the log")
			torn, err = rl.append(&Result{Game: "c"})
			require.NoError(t, err)
			require.Nil(t, torn)
			require.NoError(t, rl.close())
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			got := string(b)
			require.True(t, strings.HasPrefix(got, tt.want), got)
			rest := strings.TrimPrefix(got, tt.want)
			var r Result
			require.NoError(t, jsonUnmarshalStrict([]byte(rest), &r))
			require.Equal(t, "c", r.Game)
			require.Equal(t, 1, strings.Count(rest, "\n"))
		})
	}
}

// TestMetricsText checks the Prometheus exposition: every sample has a
// HELP and a TYPE, the forfeit counter has every reason, and the action
// rate is the rate since the previous scrape.
func TestMetricsText(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := newMetrics(t0)
	m.actions.Add(500)
	m.gamesRunning.Add(3)
	m.finish(&Result{Outcome: OutcomeWin, Reason: ReasonOutOfTurn, Forfeits: []int{1}})
	m.finish(&Result{Outcome: OutcomeWin, Reason: ReasonSunk})
	m.finish(&Result{Outcome: OutcomeDraw, Reason: ReasonDrawLimit})
	var b strings.Builder
	require.NoError(t, m.write(&b, t0.Add(2*time.Second)))
	text := b.String()
	for _, want := range []string{
		"kaisen_actions_per_second 250\n",
		"kaisen_actions_total 500\n",
		"kaisen_games_running 3\n",
		`kaisen_games_finished_total{outcome="win"} 2` + "\n",
		`kaisen_games_finished_total{outcome="draw"} 1` + "\n",
		`kaisen_forfeits_total{reason="out_of_turn"} 1` + "\n",
		`kaisen_forfeits_total{reason="disconnect"} 0` + "\n",
		"kaisen_up_seconds 2\n",
	} {
		require.Contains(t, text, want)
	}
	for _, r := range forfeitReasons {
		require.Contains(t, text, `kaisen_forfeits_total{reason="`+r+`"}`)
	}
	typed := map[string]bool{}
	sampleRE := regexp.MustCompile(`^([a-z_]+)(\{[a-z_]+="[a-z_]+"\})? -?[0-9]+(\.[0-9]+)?$`)
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if name, ok := strings.CutPrefix(line, "# TYPE "); ok {
			f := strings.Fields(name)
			require.Len(t, f, 2, line)
			require.Contains(t, []string{"counter", "gauge"}, f[1])
			typed[f[0]] = true
			continue
		}
		if strings.HasPrefix(line, "# HELP ") {
			continue
		}
		mm := sampleRE.FindStringSubmatch(line)
		require.NotNil(t, mm, "sample line %q", line)
		require.True(t, typed[mm[1]], "%s has no TYPE before it", mm[1])
	}
	// The next scrape: no new action, rate 0.
	b.Reset()
	require.NoError(t, m.write(&b, t0.Add(3*time.Second)))
	require.Contains(t, b.String(), "kaisen_actions_per_second 0\n")
}

// TestCleanName: a submarine-py client's name is stored printable and
// bounded, whatever it sends.
func TestCleanName(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"plain", "alice", "alice"},
		{"spaces kept inside, trimmed around", "  team  blue \t", "team  blue"},
		{"unicode letters", "ボブ-β", "ボブ-β"},
		{"terminal escape", "evil\x1b[2J\x1b]0;pwned\x07", "evil?[2J?]0;pwned?"},
		{"bidi override", "abc\u202edcba", "abc?dcba"},
		{"invalid UTF-8", "a\xffb\xc3", "a?b?"},
		{"nul and tab inside", "a\x00b\tc", "a?b?c"},
		{"long", strings.Repeat("x", 100), strings.Repeat("x", maxNameBytes)},
		{"long multibyte cut on a rune", strings.Repeat("é", 40), strings.Repeat("é", maxNameBytes/2)},
		{"long with a 3-byte rune at the edge", strings.Repeat("x", 62) + "ボ", strings.Repeat("x", 62)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := cleanName([]byte(tt.in))
			require.Equal(t, tt.want, got)
			require.LessOrEqual(t, len(got), maxNameBytes)
			require.True(t, utf8.ValidString(got))
			for _, r := range got {
				require.True(t, unicode.IsPrint(r), "%q", r)
			}
		})
	}
}

// TestHostileNameIsStoredClean: the name of a submarine-py client reaches
// the result log, the log and the replay only cleaned.
func TestHostileNameIsStoredClean(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.Listeners[0].Dialect = "submarine-py"
	cfg.Listeners[0].Opponent = "random"
	ts := startServer(t, cfg)
	_, err := randomClient(ts.addr(0), protocol.SubmarinePy, subRules(t, ts.setups[0]), 1, "evil\x1b[2J\x07"+strings.Repeat("z", 100))
	require.NoError(t, err)
	rs := ts.waitResults(t, 1)
	want := "evil?[2J?" + strings.Repeat("z", maxNameBytes-9)
	require.Equal(t, want, rs[0].Players[0].Name)
	rp := verifyReplay(t, ts, rs[0])
	require.True(t, strings.HasSuffix(rp.Header.Players[0].Name, " "+want), rp.Header.Players[0].Name)
	ts.stop(t)
	require.NotContains(t, ts.logs.String(), "\\u001b", "no escape in the JSON log")
	b, err := os.ReadFile(cfg.ResultLog)
	require.NoError(t, err)
	require.NotContains(t, string(b), "\\u001b")
}

// TestResultLogShared: two servers appending to one result log (two open
// files, as two processes have) write whole lines only, and a torn tail
// left by a third one's crash is cut off by the next append (and returned
// for the log), never a line being written.
func TestResultLogShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	a, _, err := openResultLog(path)
	require.NoError(t, err)
	b, _, err := openResultLog(path)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 40 {
		rl := a
		if i%2 == 1 {
			rl = b
		}
		wg.Go(func() {
			_, err := rl.append(&Result{Game: fmt.Sprintf("g%d", i), Detail: strings.Repeat("x", 3000)})
			require.NoError(t, err)
		})
	}
	wg.Wait()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"game":"crashed","de`)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	torn, err := b.append(&Result{Game: "after"})
	require.NoError(t, err)
	require.Equal(t, `{"game":"crashed","de`, string(torn))
	require.NoError(t, a.close())
	require.NoError(t, b.close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	require.Len(t, lines, 41)
	seen := map[string]bool{}
	for _, l := range lines {
		var r Result
		require.NoError(t, jsonUnmarshalStrict([]byte(l), &r), l)
		seen[r.Game] = true
	}
	require.Len(t, seen, 41)
	require.True(t, seen["after"])
}
