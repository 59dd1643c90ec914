package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// TestStarterPlays: the Go starter finishes 100 games against the random
// house AI (a series on one connection, then a submarine-py game) without
// a forfeit on either side.
func TestStarterPlays(t *testing.T) {
	for _, tc := range []struct {
		name     string
		listener server.ListenerConfig
		games    int
	}{
		{"classic series", server.ListenerConfig{Opponent: "random", Games: 100}, 100},
		{"submarine-py rounded 6x5", server.ListenerConfig{Dialect: "submarine-py", Width: 6, Height: 5, Rounded: true, Opponent: "random"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := servertest.Start(t, servertest.Config(t, 3, tc.listener))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			require.NoError(t, run(ctx, s.Addr(0), "gostarter", 1))
			rs := s.WaitResults(t, tc.games)
			require.Len(t, rs, tc.games)
			for _, r := range rs {
				require.Empty(t, r.Forfeits, "game %s: %s %s", r.Game, r.Reason, r.Detail)
			}
		})
	}
}
