package loadtest_test

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/loadtest"
	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// checkLeaks fails the test if goroutines started during it are still
// running at its end (after every other cleanup, which run before it).
func checkLeaks(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				buf = buf[:runtime.Stack(buf, true)]
				t.Errorf("goroutine leak: %d before, %d after\n%s", before, runtime.NumGoroutine(), buf)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// actionsTotal scrapes kaisen_actions_total from the server's metrics.
func actionsTotal(t *testing.T, s *servertest.Server) int64 {
	t.Helper()
	resp, err := http.Get("http://" + s.MetricsAddr().String() + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "kaisen_actions_total "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			require.NoError(t, err)
			return n
		}
	}
	require.NoError(t, sc.Err())
	t.Fatal("no kaisen_actions_total in /metrics")
	return 0
}

// TestLoad drives servers with Run and checks its counts against the
// server's own: games in the result log, actions in the metrics.
func TestLoad(t *testing.T) {
	for _, tt := range []struct {
		name     string
		listener server.ListenerConfig
		opts     loadtest.Options
		games    int // result log lines
	}{
		{"house", server.ListenerConfig{Opponent: "random"}, loadtest.Options{Games: 12, Concurrency: 4}, 12},
		{"pairs", server.ListenerConfig{}, loadtest.Options{Games: 6, Concurrency: 3, Pairs: true}, 6},
		{"submarine-py", server.ListenerConfig{Dialect: "submarine-py", Width: 6, Height: 5, Rounded: true, Opponent: "random"}, loadtest.Options{Games: 4, Concurrency: 2}, 4},
		{"series", server.ListenerConfig{Opponent: "random", Games: 3, First: server.FirstAlternate}, loadtest.Options{Games: 6, Concurrency: 2}, -1},
		{"play client", server.ListenerConfig{Opponent: "random"}, loadtest.Options{Games: 3, Concurrency: 3, Player: "simple"}, 3},
		{"paced", server.ListenerConfig{Opponent: "random"}, loadtest.Options{Games: 2, Concurrency: 2, Rate: 4000}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkLeaks(t)
			s := servertest.Start(t, servertest.Config(t, 1, tt.listener))
			opts := tt.opts
			opts.Addr = s.Addr(0)
			rep, err := loadtest.Run(context.Background(), opts)
			require.NoError(t, err)
			want := tt.games
			if want < 0 { // whole series of 3: at least the games asked for
				require.GreaterOrEqual(t, rep.Games, tt.opts.Games)
				require.Zero(t, rep.Games%3)
				want = rep.Games
			}
			require.Equal(t, want, rep.Games)
			require.Zero(t, rep.Errors, rep.FirstError)
			losses := rep.Losses
			if tt.opts.Pairs {
				losses = 0 // both sides of a pair are ours: a decided game is one win and one loss
			}
			require.Equal(t, rep.Games, rep.Wins+rep.Draws+losses)
			rs := s.WaitResults(t, want)
			require.Len(t, rs, want)
			actions := 0
			for _, r := range rs {
				require.Contains(t, []string{server.ReasonSunk, server.ReasonDrawLimit}, r.Reason)
				actions += r.Actions
			}
			require.Equal(t, int64(actions), rep.Actions)
			require.Equal(t, int64(actions), actionsTotal(t, s))
			// Our clients make every action of a pair, about half against
			// the house AI.
			if tt.opts.Pairs {
				require.Equal(t, int64(actions), rep.RTT.N)
			} else {
				require.InDelta(t, float64(actions)/2, float64(rep.RTT.N), float64(actions)/10+float64(rep.Games))
			}
			require.Positive(t, rep.ActionsPerSec)
			require.Positive(t, rep.RTT.P50)
			require.LessOrEqual(t, rep.RTT.P50, rep.RTT.P99)
			require.LessOrEqual(t, rep.RTT.P99, rep.RTT.Max)
			if tt.opts.Rate > 0 {
				// Each client spaces its actions 2*concurrency/rate apart.
				perClient := rep.RTT.N / int64(tt.opts.Concurrency)
				require.GreaterOrEqual(t, rep.Elapsed, time.Duration(perClient-1)*time.Second*2*time.Duration(tt.opts.Concurrency)/time.Duration(tt.opts.Rate))
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	_, err := loadtest.Run(context.Background(), loadtest.Options{Addr: "127.0.0.1:1", Games: 0, Concurrency: 1})
	require.ErrorIs(t, err, loadtest.ErrLoad)
	_, err = loadtest.Run(context.Background(), loadtest.Options{Addr: "127.0.0.1:1", Games: 1, Concurrency: 1, Player: "deepblue"})
	require.ErrorContains(t, err, "deepblue")

	// Nothing listens: every attempt fails, the errors are counted.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	rep, err := loadtest.Run(context.Background(), loadtest.Options{Addr: addr, Games: 2, Concurrency: 2})
	require.ErrorIs(t, err, loadtest.ErrLoad)
	require.Zero(t, rep.Games)
	require.Positive(t, rep.Errors)
	require.Contains(t, rep.FirstError, "refused")
}
