package server

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/players"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
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
	rules := subRules(t, s.setups[0])
	var (
		mu   sync.Mutex
		made []*houseLearner
	)
	subServed(t, s.setups[0]).house = players.Adapt(func(rng *rand.Rand) players.Player {
		h := &houseLearner{Player: players.NewRandom(rules, rng), rules: rules, mu: &mu}
		mu.Lock()
		made = append(made, h)
		mu.Unlock()
		return h
	})
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

// bsLearner is a battleship AI that learns nothing but records its series:
// how often it was started anew and the ends it was told.
type bsLearner struct {
	bsplayers.Player
	fresh    bsplayers.Factory
	mu       *sync.Mutex
	newGames int
	ends     []series.End
}

var _ arena.Learner = (*bsLearner)(nil)

func (h *bsLearner) NewGame(rng *rand.Rand) {
	h.Player = h.fresh(rng)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.newGames++
}

func (h *bsLearner) EndGame(e series.End) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ends = append(h.ends, e)
}

// learners makes bsLearners over the AI name and keeps every one it made.
type learners struct {
	mu   sync.Mutex
	made []*bsLearner
}

func (l *learners) factory(t *testing.T, name string) bsplayers.Factory {
	fresh, err := bsplayers.New(name, battleship.DefaultRules(), nil)
	require.NoError(t, err)
	return func(rng *rand.Rand) bsplayers.Player {
		h := &bsLearner{Player: fresh(rng), fresh: fresh, mu: &l.mu}
		l.mu.Lock()
		defer l.mu.Unlock()
		l.made = append(l.made, h)
		return h
	}
}

// TestBattleshipSeries: a battleship listener with games > 1 plays a
// series on one connection, as the classic series does: "roundN."
// greetings, first seats by the policy, a "." on the last end line, the
// trailer, one result and one verified replay per game. The house AI, a
// learner, is one player for the whole series, told every game's end; so
// is the client's (PlayBattleshipSeries). The next connection's series
// gets a house AI of its own.
func TestBattleshipSeries(t *testing.T) {
	checkLeaks(t)
	cfg := bsConfig(t, "gridbot")
	cfg.Listeners[0].Games = 3
	cfg.Listeners[0].First = FirstAlternate
	s, err := New(cfg, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	var house, clients learners
	bsServed(t, s.setups[0]).house = bsplayers.Adapt(house.factory(t, "gridbot"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	require.Eventually(t, func() bool { return s.Addrs() != nil }, 10*time.Second, time.Millisecond)

	var played []client.BattleshipSeries
	for c := range 2 {
		conn, err := net.Dial("tcp", s.Addrs()[0].String())
		require.NoError(t, err)
		var heard []client.BattleshipGame
		res, err := client.PlayBattleshipSeries(context.Background(), conn, clients.factory(t, "bs-random"),
			func(game int) *rand.Rand { return rand.New(rand.NewPCG(uint64(c), uint64(game))) },
			client.BattleshipPlayOptions{ReadTimeout: 20 * time.Second, OnGame: func(g client.BattleshipGame) { heard = append(heard, g) }})
		require.NoError(t, conn.Close())
		require.NoError(t, err)
		require.True(t, res.Series)
		require.Equal(t, res.Games, heard, "OnGame hears every game as it ends")
		played = append(played, res)
	}
	cancel()
	require.NoError(t, <-done)
	ts := &testServer{Server: s, cfg: cfg}
	results := ts.results(t)
	require.Len(t, results, 6)

	house.mu.Lock()
	defer house.mu.Unlock()
	require.Len(t, house.made, 2, "one house AI per series")
	require.Len(t, clients.made, 2, "one client AI per series")
	for p, res := range played {
		require.Len(t, res.Games, 3)
		var tally protocol.Tally
		for k, g := range res.Games {
			r := results[3*p+k]
			require.Equal(t, k+1, r.Round)
			require.Equal(t, 3, r.Rounds)
			require.Equal(t, k%2, r.First, "first alternates")
			require.Empty(t, r.Forfeits)
			verifyBSReplay(t, ts, r)
			require.Equal(t, k, g.Game)
			require.Equal(t, k+1, g.Round)
			require.Equal(t, k == 2, g.Last, "only the last end line has the final dot")
			require.Equal(t, r.First == 0, g.First, "the client is seat 0")
			want := series.End{Game: k, Seat: 1, First: r.First, Winner: r.Winner}
			require.Equal(t, want, house.made[p].ends[k], "pairing %d game %d: the house learner's end", p, k)
			// The client's learner sees the game from its side: seat 0 is
			// the side that shot first.
			mine := series.End{Game: k, Seat: r.First, First: 0, Winner: -1}
			switch g.End {
			case protocol.EndWin:
				mine.Winner = mine.Seat
				tally.Win++
			case protocol.EndLose:
				mine.Winner = 1 - mine.Seat
				tally.Lose++
			default:
				tally.Even++
			}
			require.Equal(t, r.Winner == 0, g.End == protocol.EndWin)
			require.Equal(t, mine, clients.made[p].ends[k], "pairing %d game %d: the client learner's end", p, k)
		}
		require.Equal(t, &tally, res.Tally, "the trailer counts the client's games")
		require.Equal(t, 2, house.made[p].newGames, "started anew for games 2 and 3")
		require.Equal(t, 2, clients.made[p].newGames)
	}
}

// TestBattleshipSeriesAdaptiveHouseLearns: the adaptive house AI learns
// the client's fleets over a series on the server (each game's end adds
// one game to its placement model), and learns nothing outside a series,
// where every game has a fresh house AI.
func TestBattleshipSeriesAdaptiveHouseLearns(t *testing.T) {
	for _, games := range []int{1, 2} {
		t.Run(fmt.Sprintf("games=%d", games), func(t *testing.T) {
			checkLeaks(t)
			cfg := bsConfig(t, "adaptive")
			cfg.Listeners[0].Games = games
			// Cheap shots (sampled, few draws): the test is about learning.
			cfg.Listeners[0].HouseConfig = filepath.Join(t.TempDir(), "adaptive.yaml")
			require.NoError(t, os.WriteFile(cfg.Listeners[0].HouseConfig, []byte("budget: 1ms\nsamples: 100\nbase_draws: 100\n"), 0o600))
			s, err := New(cfg, slog.New(slog.DiscardHandler))
			require.NoError(t, err)
			adaptive, err := bsplayers.New("adaptive", battleship.DefaultRules(), config.File(cfg.Listeners[0].HouseConfig))
			require.NoError(t, err)
			var (
				mu   sync.Mutex
				made []*bsplayers.Adaptive
			)
			bsServed(t, s.setups[0]).house = bsplayers.Adapt(func(rng *rand.Rand) bsplayers.Player {
				p := adaptive(rng)
				mu.Lock()
				defer mu.Unlock()
				made = append(made, p.(*bsplayers.Adaptive))
				return p
			})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- s.Serve(ctx) }()
			require.Eventually(t, func() bool { return s.Addrs() != nil }, 10*time.Second, time.Millisecond)
			conn, err := net.Dial("tcp", s.Addrs()[0].String())
			require.NoError(t, err)
			gridbot, err := bsplayers.New("gridbot", battleship.DefaultRules(), nil)
			require.NoError(t, err)
			res, err := client.PlayBattleshipSeries(context.Background(), conn, gridbot,
				func(game int) *rand.Rand { return rand.New(rand.NewPCG(9, uint64(game))) },
				client.BattleshipPlayOptions{ReadTimeout: 60 * time.Second})
			require.NoError(t, conn.Close())
			require.NoError(t, err)
			require.Len(t, res.Games, games)
			require.Equal(t, games > 1, res.Series)
			cancel()
			require.NoError(t, <-done)

			mu.Lock()
			defer mu.Unlock()
			require.Len(t, made, 1, "one house AI for the connection")
			want := 0
			if games > 1 {
				want = games // every game of the series taught it
			}
			require.Equal(t, want, made[0].Model().Games())
		})
	}
}
