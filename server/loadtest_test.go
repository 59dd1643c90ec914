package server

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestLoad drives servers with Load and checks its counts against the
// server's own: games in the result log, actions in the metrics.
func TestLoad(t *testing.T) {
	for _, tt := range []struct {
		name     string
		listener ListenerConfig
		opts     LoadOptions
		games    int // result log lines
	}{
		{"house", ListenerConfig{Opponent: "random"}, LoadOptions{Games: 12, Concurrency: 4}, 12},
		{"pairs", ListenerConfig{}, LoadOptions{Games: 6, Concurrency: 3, Pairs: true}, 6},
		{"submarine-py", ListenerConfig{Dialect: "submarine-py", Width: 6, Height: 5, Rounded: true, Opponent: "random"}, LoadOptions{Games: 4, Concurrency: 2}, 4},
		{"series", ListenerConfig{Opponent: "random", Games: 3, First: FirstAlternate}, LoadOptions{Games: 6, Concurrency: 2}, -1},
		{"play client", ListenerConfig{Opponent: "random"}, LoadOptions{Games: 3, Concurrency: 3, Player: "simple"}, 3},
		{"paced", ListenerConfig{Opponent: "random"}, LoadOptions{Games: 2, Concurrency: 2, Rate: 4000}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkLeaks(t)
			cfg := testConfig(t)
			tt.listener.Address = "127.0.0.1:0"
			cfg.Listeners = []ListenerConfig{tt.listener}
			ts := startServer(t, cfg)
			opts := tt.opts
			opts.Addr = ts.addr(0)
			rep, err := Load(context.Background(), opts)
			require.NoError(t, err)
			want := tt.games
			if want < 0 { // whole series of 3: at least the games asked for
				require.GreaterOrEqual(t, rep.Games, tt.opts.Games)
				require.Zero(t, rep.Games%3)
				want = rep.Games
			}
			require.Equal(t, want, rep.Games)
			require.Zero(t, rep.Errors, rep.FirstError)
			require.Equal(t, rep.Games, rep.Wins+rep.Draws+boolInt(!tt.opts.Pairs)*rep.Losses)
			rs := ts.waitResults(t, want)
			require.Len(t, rs, want)
			actions := 0
			for _, r := range rs {
				require.Contains(t, []string{ReasonSunk, ReasonDrawLimit}, r.Reason)
				actions += r.Actions
			}
			require.Equal(t, int64(actions), rep.Actions)
			require.Equal(t, int64(actions), ts.metrics.actions.Load())
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
	_, err := Load(context.Background(), LoadOptions{Addr: "127.0.0.1:1", Games: 0, Concurrency: 1})
	require.ErrorIs(t, err, ErrLoad)
	_, err = Load(context.Background(), LoadOptions{Addr: "127.0.0.1:1", Games: 1, Concurrency: 1, Player: "deepblue"})
	require.ErrorContains(t, err, "deepblue")

	// Nothing listens: every attempt fails, the errors are counted.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	rep, err := Load(context.Background(), LoadOptions{Addr: addr, Games: 2, Concurrency: 2})
	require.ErrorIs(t, err, ErrLoad)
	require.Zero(t, rep.Games)
	require.Positive(t, rep.Errors)
	require.Contains(t, rep.FirstError, "refused")
}

func TestHistogram(t *testing.T) {
	h := new(histogram)
	for i := 1; i <= 1000; i++ {
		h.add(time.Duration(i) * time.Microsecond)
	}
	q := h.quantiles()
	require.Equal(t, int64(1000), q.N)
	require.Equal(t, time.Millisecond, q.Max)
	for _, c := range []struct {
		got, want time.Duration
	}{{q.P50, 500 * time.Microsecond}, {q.P90, 900 * time.Microsecond}, {q.P99, 990 * time.Microsecond}} {
		require.InEpsilon(t, float64(c.want), float64(c.got), 0.02, "%v vs %v", c.got, c.want)
	}
	for _, d := range []time.Duration{0, 1, 127, 128, 129, 1000, time.Second, time.Hour} {
		v := bucketValue(bucketOf(d))
		require.InEpsilon(t, float64(max(d, 1)), float64(max(v, 1)), 0.02, "%v in bucket of %v", d, v)
	}
	var empty histogram
	require.Zero(t, empty.quantile(0.5))
}
