package tournament

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

func entrants(t *testing.T, r *submarine.Rules, names ...string) []arena.SubmarineEntrant {
	t.Helper()
	var out []arena.SubmarineEntrant
	for _, n := range names {
		f, err := players.New(n, r, nil)
		require.NoError(t, err)
		out = append(out, arena.SubmarineEntrant{Name: n, Factory: f})
	}
	return out
}

func TestRunRoundRobin(t *testing.T) {
	r := submarine.DefaultRules()
	c := Config{Rules: r, Players: entrants(t, r, "random", "stateplayer2", "simple"), Games: 20, Seed: 9, Workers: 2, Bootstrap: 200, Timing: true}
	var last, total int
	res, err := Run(context.Background(), c, func(done, tot int) { last, total = done, tot })
	require.NoError(t, err)
	require.True(t, res.Complete)
	require.Equal(t, 60, total)
	require.Equal(t, 60, last)
	require.Len(t, res.Pairs, 3)
	for _, p := range res.Pairs {
		require.Equal(t, 20, p.Wins+p.Draws+p.Losses)
	}
	require.Equal(t, "stateplayer2", res.Ratings[0].Name, "the strongest is rated first")
	require.Equal(t, "random", res.Ratings[2].Name)
	sum := 0.0
	for _, rt := range res.Ratings {
		sum += rt.Elo
		require.Equal(t, 40, rt.Games)
		require.LessOrEqual(t, rt.Lo, rt.Elo)
		require.GreaterOrEqual(t, rt.Hi, rt.Elo)
		require.NotNil(t, rt.Timing)
		require.Positive(t, rt.Timing.Decisions)
		require.LessOrEqual(t, rt.Timing.P50MS, rt.Timing.P99MS)
		require.LessOrEqual(t, rt.Timing.P99MS, rt.Timing.MaxMS)
	}
	require.InDelta(t, 0, sum, 1e-6)

	// Reproducible whatever the number of workers (timings aside).
	c.Workers, c.Timing = 1, false
	again, err := Run(context.Background(), c, nil)
	require.NoError(t, err)
	require.Equal(t, res.Pairs, again.Pairs)
	for i := range res.Ratings {
		require.Equal(t, res.Ratings[i].Elo, again.Ratings[i].Elo)
		require.Equal(t, res.Ratings[i].Lo, again.Ratings[i].Lo)
	}

	var buf bytes.Buffer
	require.NoError(t, res.WriteTable(&buf))
	out := buf.String()
	for _, want := range []string{"20 games per pair", "stateplayer2", "elo", "95% interval", "p99 ms"} {
		require.Contains(t, out, want)
	}
	data, err := json.Marshal(res)
	require.NoError(t, err)
	require.True(t, strings.Contains(string(data), `"ratings":[`), string(data))
}

func TestRunCancelled(t *testing.T) {
	r := submarine.DefaultRules()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, Config{Rules: r, Players: entrants(t, r, "random", "simple"), Games: 10}, nil)
	require.ErrorIs(t, err, context.Canceled)
	require.False(t, res.Complete)
	require.Len(t, res.Ratings, 2, "what was played is still rated")
}

func TestConfigValidate(t *testing.T) {
	r := submarine.DefaultRules()
	two := entrants(t, r, "random", "simple")
	tests := []struct {
		name string
		c    Config
		want string
	}{
		{name: "one player", c: Config{Rules: r, Players: two[:1], Games: 1}, want: "at least 2"},
		{name: "twice", c: Config{Rules: r, Players: []arena.SubmarineEntrant{two[0], two[0]}, Games: 1}, want: "twice"},
		{name: "no games", c: Config{Rules: r, Players: two, Games: 0}, want: "games per pair"},
		{name: "no rules", c: Config{Players: two, Games: 1}, want: "no rules"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.Validate()
			require.ErrorIs(t, err, ErrConfig)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

// TestShardsAddUpToRun: shards cut anywhere in the pair-after-pair order of
// games, pairs split across shards included, sum to Run's pairs, and
// FromPairs rates them exactly as Run.
func TestShardsAddUpToRun(t *testing.T) {
	r := submarine.DefaultRules()
	c := Config{Rules: r, Players: entrants(t, r, "random", "simple", "stateplayer2"), Games: 7, Seed: 4, Workers: 2, Bootstrap: 100}
	whole, err := Run(context.Background(), c, nil)
	require.NoError(t, err)
	sums := make([]Pair, 3)
	for _, cut := range [][2]int{{0, 5}, {5, 10}, {15, 6}} { // pair 0 = games 0..6, pair 1 = 7..13, pair 2 = 14..20
		var last, total int
		parts, err := Shard(context.Background(), c, cut[0], cut[1], func(d, tot int) { last, total = d, tot })
		require.NoError(t, err)
		require.Equal(t, cut[1], total)
		require.Equal(t, cut[1], last)
		for _, p := range parts {
			s := &sums[p.Index]
			s.A, s.B, s.Seed = p.A, p.B, p.Seed
			s.Wins += p.Wins
			s.Draws += p.Draws
			s.Losses += p.Losses
		}
	}
	require.Equal(t, whole.Pairs, sums)
	rated, err := FromPairs(whole.Players, c.Games, c.Seed, c.Bootstrap, sums)
	require.NoError(t, err)
	require.Equal(t, whole, rated)

	_, err = Shard(context.Background(), c, 15, 7, nil)
	require.ErrorIs(t, err, ErrConfig, "beyond the last game")
}
