package server

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/series"
)

// houseLearner is a random house AI that records the ends of its series.
type houseLearner struct {
	players.Player
	rules *submarine.Rules
	mu    *sync.Mutex
	ends  []series.End
}

var _ arena.Learner = (*houseLearner)(nil)

func (h *houseLearner) NewGame(rng *rand.Rand) { h.Player = players.NewRandom(h.rules, rng) }

func (h *houseLearner) EndGame(e series.End) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ends = append(h.ends, e)
}

// TestHouseLearnerKeptPerSeries: in a series on one connection the house
// AI, a Learner, is one player told the end of every game of the series
// (its seat, who moved first, the winner, as the result log says); the next
// client's series has a house AI of its own.
func TestHouseLearnerKeptPerSeries(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.Listeners[0].Opponent = "random"
	cfg.Listeners[0].Games = 3
	cfg.Listeners[0].First = FirstAlternate
	s, err := New(cfg, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	rules := s.setups[0].rules
	var (
		mu   sync.Mutex
		made []*houseLearner
	)
	s.setups[0].house = func(rng *rand.Rand) players.Player {
		h := &houseLearner{Player: players.NewRandom(rules, rng), rules: rules, mu: &mu}
		mu.Lock()
		made = append(made, h)
		mu.Unlock()
		return h
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	require.Eventually(t, func() bool { return s.Addrs() != nil }, 10*time.Second, time.Millisecond)

	for client := range 2 {
		ends, err := randomClient(s.Addrs()[0].String(), protocol.Classic, rules, uint64(client+1), "")
		require.NoError(t, err)
		require.Len(t, ends, 3)
	}
	cancel()
	require.NoError(t, <-done)
	results := (&testServer{Server: s, cfg: cfg}).results(t)
	require.Len(t, results, 6)

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, made, 2, "one house AI per series")
	for p, h := range made {
		require.Len(t, h.ends, 3, "pairing %d", p)
		for k, e := range h.ends {
			r := results[3*p+k]
			require.Equal(t, series.End{Game: k, Seat: 1, First: r.First, Winner: r.Winner}, e, "pairing %d game %d", p, k)
		}
	}
}
