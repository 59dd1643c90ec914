package shots_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/shard"
	"github.com/kaisen-ai/kaisen/shots"
)

// small is a 6x6 board with the fleet 3,2,1,1: games of a few shots.
func small(t *testing.T) *battleship.Rules {
	t.Helper()
	b, err := grid.NewBoard(6, 6, nil)
	require.NoError(t, err)
	r, err := battleship.NewRules(b, []int{3, 2, 1, 1})
	require.NoError(t, err)
	return r
}

// config is a run of games [0, n) of player on small fleets, placed
// uniformly.
func config(t *testing.T, player string, n int) shots.Config {
	t.Helper()
	r := small(t)
	f, err := bsplayers.New(player, r, nil)
	require.NoError(t, err)
	p, err := bsbelief.NewStylePlacer(r, "uniform")
	require.NoError(t, err)
	return shots.Config{Rules: r, Player: f, Placer: p.Place, Seed: 7, Hi: n, Workers: 1}
}

func TestRunReproducibleAcrossWorkersAndShards(t *testing.T) {
	c := config(t, "density", 12)
	vs, err := bsplayers.New("bs-random", c.Rules, nil)
	require.NoError(t, err)
	c.Vs = vs
	want, err := shots.Run(context.Background(), c)
	require.NoError(t, err)
	require.Len(t, want.Shots, 12)
	require.Len(t, want.Vs, 12)
	require.Positive(t, want.Stats.Exact, "density counts its exact moves")
	require.Len(t, want.Moves, sum(want.Shots), "one decision time per shot")

	c.Workers = 3
	got, err := shots.Run(context.Background(), c)
	require.NoError(t, err)
	require.Equal(t, want.Shots, got.Shots)
	require.Equal(t, want.Vs, got.Vs)
	require.Equal(t, want.Stats, got.Stats)

	c.Lo, c.Hi = 5, 9
	part, err := shots.Run(context.Background(), c)
	require.NoError(t, err)
	require.Equal(t, want.Shots[5:9], part.Shots, "a shard plays the very games of the run")

	c.Seed = 8
	other, err := shots.Run(context.Background(), c)
	require.NoError(t, err)
	require.NotEqual(t, part.Shots, other.Shots, "another seed, other fleets")
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// TestRunSeries: the first game of a series (nothing learnt yet) is game
// 0 played by density; a player that does not learn fails the series.
func TestRunSeries(t *testing.T) {
	c := config(t, "adaptive", 6)
	c.Series, c.Workers = 3, 2
	res, err := shots.Run(context.Background(), c)
	require.NoError(t, err)
	require.Len(t, res.Shots, 6)

	c.Series, c.Hi = 1, 1
	first, err := shots.Run(context.Background(), c)
	require.NoError(t, err)
	d := config(t, "density", 1)
	alone, err := shots.Run(context.Background(), d)
	require.NoError(t, err)
	require.Equal(t, alone.Shots, first.Shots)

	g := config(t, "gridbot", 4)
	g.Series, g.Lo = 2, 2
	_, err = shots.Run(context.Background(), g)
	var ge *shots.GameError
	require.ErrorAs(t, err, &ge)
	require.Equal(t, 2, ge.Game, "the series' first game")
	require.ErrorIs(t, err, shots.ErrNotLearner)
}

// panicky panics when it shoots.
type panicky struct{}

func (panicky) Place() battleship.Placement { return nil }
func (panicky) Shoot() grid.Cell            { panic("boom") }
func (panicky) Observe(battleship.Event)    {}

func TestRunFailures(t *testing.T) {
	c := config(t, "gridbot", 5)
	c.Player = func(*rand.Rand) bsplayers.Player { return panicky{} }
	_, err := shots.Run(context.Background(), c)
	var ge *shots.GameError
	require.ErrorAs(t, err, &ge)
	require.Zero(t, ge.Game, "the first game in game order")
	require.False(t, ge.Vs)
	require.ErrorContains(t, err, "player panicked: boom")

	c = config(t, "gridbot", 5)
	c.Vs = func(*rand.Rand) bsplayers.Player { return panicky{} }
	_, err = shots.Run(context.Background(), c)
	require.ErrorAs(t, err, &ge)
	require.True(t, ge.Vs)

	c = config(t, "gridbot", 5)
	c.Placer = func(*rand.Rand) (battleship.Placement, error) { return nil, errors.New("no room") }
	_, err = shots.Run(context.Background(), c)
	require.ErrorContains(t, err, "no room")
}

func TestRunBadConfig(t *testing.T) {
	for name, edit := range map[string]func(*shots.Config){
		"no rules":      func(c *shots.Config) { c.Rules = nil },
		"no player":     func(c *shots.Config) { c.Player = nil },
		"no placer":     func(c *shots.Config) { c.Placer = nil },
		"series -1":     func(c *shots.Config) { c.Series = -1 },
		"games [3, 2)":  func(c *shots.Config) { c.Lo, c.Hi = 3, 2 },
		"games [-1, 2)": func(c *shots.Config) { c.Lo = -1 },
	} {
		t.Run(name, func(t *testing.T) {
			c := config(t, "gridbot", 2)
			edit(&c)
			_, err := shots.Run(context.Background(), c)
			require.ErrorIs(t, err, shots.ErrConfig)
		})
	}
}

func TestRunCancelledAndProgress(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := shots.Run(ctx, config(t, "gridbot", 50))
	require.NoError(t, err, "an interrupted run is no error")
	require.Empty(t, res.Shots)

	c := config(t, "gridbot", 7)
	var seen []int
	c.Progress = func(n int) { seen = append(seen, n) }
	c.Workers = 2
	res, err = shots.Run(context.Background(), c)
	require.NoError(t, err)
	require.Equal(t, []int{1, 2, 3, 4, 5, 6, 7}, seen)
	require.Len(t, res.Shots, 7)

	// A run stopped while it plays keeps the games finished.
	c = config(t, "density", 100000)
	c.Workers = 2
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	res, err = shots.Run(ctx, c)
	require.NoError(t, err)
	require.Less(t, len(res.Shots), 100000)
}

func TestSummarize(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name  string
		shots []int
		moves []time.Duration
		want  shots.Summary
	}{
		{"none", nil, nil, shots.Summary{Player: "p"}},
		{"one", []int{30}, []time.Duration{ms}, shots.Summary{Player: "p", Games: 1, Mean: 30, Median: 30, P90: 30, Max: 30, MsPerMoveP99: 1}},
		{"even", []int{40, 20, 30, 50}, []time.Duration{3 * ms, 1500 * time.Microsecond},
			shots.Summary{Player: "p", Games: 4, Mean: 35, Median: 35, SD: 12.91, P90: 50, Max: 50, MsPerMoveP99: 3}},
		{"odd", []int{1, 2, 4}, []time.Duration{1234567}, shots.Summary{Player: "p", Games: 3, Mean: 2.333, Median: 2, SD: 1.528, P90: 4, Max: 4, MsPerMoveP99: 1.234567}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, shots.Summarize("p", tt.shots, tt.moves))
		})
	}
}

func TestPair(t *testing.T) {
	s := shots.Summarize("a", []int{10, 12, 14}, nil)
	s.Pair("b", []int{10, 12, 14}, []int{11, 12, 16})
	require.Equal(t, "b", s.Vs)
	require.Equal(t, 13.0, *s.VsMean)
	require.Equal(t, -1.0, *s.DiffMean)
	require.Equal(t, 1.132, *s.DiffCI95) // sd 1 of the differences: 1.96/sqrt(3)

	var none shots.Summary
	none.Pair("b", nil, nil)
	require.Equal(t, "b", none.Vs)
	require.Nil(t, none.VsMean)
}

func TestPercentile(t *testing.T) {
	moves := []time.Duration{5, 1, 4, 2, 3, 6, 7, 8, 9, 10}
	for _, tt := range []struct {
		p    float64
		want time.Duration
	}{{0, 1}, {0.5, 5}, {0.9, 9}, {0.99, 10}, {1, 10}} {
		require.Equal(t, tt.want, shots.Percentile(moves, tt.p), "p %v", tt.p)
	}
	require.Zero(t, shots.Percentile(nil, 0.5))
}

func TestResultShard(t *testing.T) {
	c := config(t, "density", 6)
	res, err := shots.Run(context.Background(), c)
	require.NoError(t, err)
	got := res.Shard("density", c.Rules)
	require.Equal(t, "density", got.Player)
	require.Equal(t, [3]any{6, 6, "3,2,1,1"}, [3]any{got.Width, got.Height, got.Fleet})
	require.Equal(t, shard.HistOf(res.Shots), got.Shots)
	require.Equal(t, int64(len(res.Moves)), got.Moves)
	require.Equal(t, res.Stats.Exact, got.Exact)
	require.Equal(t, res.Stats.Lookahead, got.Lookahead)
	require.Equal(t, int64(shots.Percentile(res.Moves, 0.99)), got.P99NS)
	require.LessOrEqual(t, got.P50NS, got.P99NS)
}
