package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// playRun runs the kaisen command line in-process.
func playRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// playServer runs Kaisen's server with one listener on a free port
// and returns its address and a function reading its result log.
func playServer(t *testing.T, l server.ListenerConfig) (string, func() []server.Result) {
	t.Helper()
	s := servertest.Start(t, servertest.Config(t, 7, l))
	return s.Addr(0), func() []server.Result { return s.Results(t) }
}

// playResults polls the result log until it has n games (the server writes
// a game's line right after its last line to the clients).
func playResults(t *testing.T, read func() []server.Result, n int) []server.Result {
	t.Helper()
	var rs []server.Result
	require.Eventually(t, func() bool { rs = read(); return len(rs) >= n }, 10*time.Second, 5*time.Millisecond)
	require.Len(t, rs, n)
	return rs
}

// playEndFor is the end line seat 0 (the kaisen play client) gets for r.
func playEndFor(r server.Result, d protocol.Dialect, last bool) string {
	switch {
	case r.Outcome == server.OutcomeDraw:
		return d.EndLine(protocol.EndDraw, last)
	case r.Winner == 0:
		return d.EndLine(protocol.EndWin, last)
	default:
		return d.EndLine(protocol.EndLose, last)
	}
}

func TestPlayAgainstKaisenServerHouseAI(t *testing.T) {
	addr, results := playServer(t, server.ListenerConfig{Opponent: "simple"})
	code, stdout, stderr := playRun(t, "play", "--addr", addr, "--player", "stateplayer2", "--seed", "3", "--connections", "3")
	require.Equal(t, 0, code, stderr)
	rs := playResults(t, results, 3)
	var want []string
	for _, r := range rs {
		require.Empty(t, r.Forfeits, "the client must never forfeit: %+v", r)
		want = append(want, playEndFor(r, protocol.Classic, false))
	}
	require.Equal(t, strings.Join(want, "\n")+"\n", stdout)
	require.Contains(t, stderr, "seed=3")
}

// TestPlayAgainstKaisenServerSeries: kaisen play plays a whole series on
// one connection, in both games that have series, and prints every end
// line, the last with its ".", then the series' tally.
func TestPlayAgainstKaisenServerSeries(t *testing.T) {
	for _, tc := range []struct {
		name     string
		listener server.ListenerConfig
		args     []string
	}{
		{"submarine", server.ListenerConfig{Opponent: "random", Games: 4, First: server.FirstAlternate}, []string{"--player", "random"}},
		{"battleship", server.ListenerConfig{Game: server.GameBattleship, Opponent: "bs-random", Games: 3, First: server.FirstAlternate},
			[]string{"--game", "battleship", "--player", "gridbot"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, results := playServer(t, tc.listener)
			code, stdout, stderr := playRun(t, append([]string{"play", "--addr", addr, "--seed", "5"}, tc.args...)...)
			require.Equal(t, 0, code, stderr)
			rs := playResults(t, results, tc.listener.Games)
			var want []string
			var tally protocol.Tally
			for i, r := range rs {
				require.Empty(t, r.Forfeits)
				require.Equal(t, i+1, r.Round)
				require.Equal(t, i%2, r.First, "first alternates")
				want = append(want, playEndFor(r, protocol.Classic, i == len(rs)-1))
				switch {
				case r.Outcome == server.OutcomeDraw:
					tally.Even++
				case r.Winner == 0:
					tally.Win++
				default:
					tally.Lose++
				}
			}
			want = append(want, protocol.SeriesTrailer(tally)...)
			require.Equal(t, strings.Join(want, "\n")+"\n", stdout)
		})
	}
}

func TestPlayAgainstKaisenServerSubmarinePy(t *testing.T) {
	addr, results := playServer(t, server.ListenerConfig{Dialect: "submarine-py", Width: 6, Height: 5, Rounded: true, Opponent: "state"})
	code, stdout, stderr := playRun(t, "play", "--addr", addr, "--player", "simple", "--name", "tanaka", "--seed", "9")
	require.Equal(t, 0, code, stderr)
	rs := playResults(t, results, 1)
	require.Empty(t, rs[0].Forfeits)
	require.Equal(t, "tanaka", rs[0].Players[0].Name)
	require.Equal(t, playEndFor(rs[0], protocol.SubmarinePy, false)+"\n", stdout)
}

// TestPlayTwoClientsPaired: two kaisen play clients meet on a pair listener.
func TestPlayTwoClientsPaired(t *testing.T) {
	addr, results := playServer(t, server.ListenerConfig{})
	var wg sync.WaitGroup
	var codes [2]int
	var outs, errs [2]string
	for i, p := range []string{"stateplayer2", "random"} {
		wg.Go(func() {
			codes[i], outs[i], errs[i] = playRun(t, "play", "--addr", addr, "--player", p, "--seed", fmt.Sprint(i+1))
		})
	}
	wg.Wait()
	require.Equal(t, [2]int{0, 0}, codes, "%v", errs)
	rs := playResults(t, results, 1)
	require.Empty(t, rs[0].Forfeits)
	ends := map[string]bool{outs[0]: true, outs[1]: true}
	if rs[0].Outcome == server.OutcomeDraw {
		require.Equal(t, map[string]bool{"even\n": true}, ends)
	} else {
		require.Equal(t, map[string]bool{"you win\n": true, "you lose\n": true}, ends)
	}
}

// playGarbageServer accepts one connection, sends lines ("<read>" reads one
// line from the client instead) and closes.
func playGarbageServer(t *testing.T, lines ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		for _, l := range lines {
			if l == "<read>" {
				if _, err := r.ReadString('\n'); err != nil {
					return
				}
				continue
			}
			if _, err := c.Write([]byte(l + "\n")); err != nil {
				return
			}
		}
	}()
	return ln.Addr().String()
}

func TestPlayProtocolErrorExitCode(t *testing.T) {
	addr := playGarbageServer(t, protocol.Classic.Greeting(), "<read>", "your turn", "<read>", `{"result":{"attacked":{"position":[0,1.5]}}}`)
	code, stdout, stderr := playRun(t, "play", "--addr", addr, "--player", "random", "--seed", "1", "--timeout", "10s")
	require.Equal(t, ExitFailure, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, `in line "{\"result\":{\"attacked\":{\"position\":[0,1.5]}}}"`)
	require.Contains(t, stderr, "protocol: wrong type")

	addr = playGarbageServer(t, "HTTP/1.1 400 Bad Request")
	code, _, stderr = playRun(t, "play", "--addr", addr, "--timeout", "10s")
	require.Equal(t, ExitFailure, code)
	require.Contains(t, stderr, `in line "HTTP/1.1 400 Bad Request"`)
}

func TestPlayFailures(t *testing.T) {
	// Closed mid-game.
	addr := playGarbageServer(t, protocol.Classic.Greeting(), "<read>", "waiting")
	code, _, stderr := playRun(t, "play", "--addr", addr, "--seed", "1", "--timeout", "10s")
	require.Equal(t, ExitFailure, code)
	require.Contains(t, stderr, "connection closed before the game ended")

	// Nobody listening.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	dead := ln.Addr().String()
	ln.Close()
	code, _, stderr = playRun(t, "play", "--addr", dead)
	require.Equal(t, ExitFailure, code)
	require.Contains(t, stderr, "connect:")

	for _, args := range [][]string{
		{"--connections", "0"},
		{"--player", "nobody"},
		{"--name", "a\nb"},
		{"--timeout", "0s"},
		{"--player", "random", "--weights", "x.yaml"},
	} {
		code, _, stderr := playRun(t, append([]string{"play", "--addr", dead}, args...)...)
		require.Equal(t, ExitUsage, code, "%v: %s", args, stderr)
	}
}

func TestPlayHelp(t *testing.T) {
	code, stdout, _ := playRun(t, "play", "--help")
	require.Equal(t, 0, code)
	for _, s := range []string{"classic", "series", "submarine-py", "Exit status", "Examples:", "--addr", "--player", "--seed", "--connections", "--name", "--weights"} {
		require.Contains(t, stdout, s)
	}
}
