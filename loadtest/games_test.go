package loadtest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/loadtest"
	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// TestLoadGames drives the other games' servers with Run: their kaisen
// play clients (one client loop for every game) play every game to its end
// and count its actions as the server does, one series included.
func TestLoadGames(t *testing.T) {
	for _, tt := range []struct {
		name     string
		listener server.ListenerConfig
		opts     loadtest.Options
		exact    bool // the client counts the actions as the server does
	}{
		{"battleship", server.ListenerConfig{Game: server.GameBattleship, Opponent: "bs-random"}, loadtest.Options{Game: "battleship", Player: "bs-random", Games: 4, Concurrency: 2}, true},
		{"battleship pairs", server.ListenerConfig{Game: server.GameBattleship, Opponent: server.OpponentPair}, loadtest.Options{Game: "battleship", Player: "bs-random", Games: 2, Concurrency: 2, Pairs: true}, true},
		{"battleship series", server.ListenerConfig{Game: server.GameBattleship, Opponent: "bs-random", Games: 2}, loadtest.Options{Game: "battleship", Player: "bs-random", Games: 2, Concurrency: 1}, true},
		{"abilities", server.ListenerConfig{Game: server.GameAbilities, Opponent: "ab-random"}, loadtest.Options{Game: "abilities", Player: "ab-random", Games: 3, Concurrency: 3}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkLeaks(t)
			s := servertest.Start(t, servertest.Config(t, 1, tt.listener))
			opts := tt.opts
			opts.Addr = s.Addr(0)
			rep, err := loadtest.Run(context.Background(), opts)
			require.NoError(t, err)
			require.Zero(t, rep.Errors, rep.FirstError)
			require.Equal(t, tt.opts.Games, rep.Games)
			rs := s.WaitResults(t, rep.Games)
			require.Len(t, rs, rep.Games)
			actions := 0
			for _, r := range rs {
				actions += r.Actions
			}
			if tt.exact {
				require.Equal(t, int64(actions), rep.Actions)
			} else {
				require.Positive(t, rep.Actions)
			}
			require.Positive(t, rep.RTT.N)
			require.LessOrEqual(t, rep.RTT.P50, rep.RTT.Max)
		})
	}
}
