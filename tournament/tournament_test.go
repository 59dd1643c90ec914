package tournament

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// roundRobin is the round robin of the built-in AIs names (NAME or
// NAME@LABEL) of game under its default rules, the families built by the
// games registry as kaisen tournament builds them.
func roundRobin(t *testing.T, game string, names ...string) Config {
	t.Helper()
	g, err := games.Lookup(game)
	require.NoError(t, err)
	cfg := arena.DefaultConfig()
	entrant := func(k int) games.Entrant {
		name, _, _ := strings.Cut(names[k], "@")
		return games.Entrant{Name: name}
	}
	return Config{Game: game, Players: names, Family: func(i, j int) (arena.Family, error) {
		return g.Family(cfg, entrant(i), entrant(j))
	}}
}

// timedGames is a Config.Timed for the tests: it times whole games, each
// counting as one decision of each side.
func timedGames(fam arena.Family, p1, p2 *Clock) (arena.Family, error) {
	return timedFamily{fam, p1, p2}, nil
}

type timedFamily struct {
	arena.Family
	p1, p2 *Clock
}

func (f timedFamily) NewTable(log *slog.Logger) arena.Table {
	return timedTable{f.Family.NewTable(log), f.p1, f.p2}
}

type timedTable struct {
	arena.Table
	p1, p2 *Clock
}

func (t timedTable) Play(d arena.Deal) (arena.GameResult, error) {
	start := time.Now()
	r, err := t.Table.Play(d)
	t.p1.Add(time.Since(start))
	t.p2.Add(time.Since(start))
	return r, err
}

func TestRunRoundRobin(t *testing.T) {
	c := roundRobin(t, "submarine", "random", "stateplayer2", "simple")
	c.Games, c.Seed, c.Workers, c.Bootstrap, c.Timing, c.Timed = 20, 9, 2, 200, true, timedGames
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
		require.Equal(t, 40, rt.Timing.Decisions, "every game of the entrant was timed, on its clock")
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
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := roundRobin(t, "submarine", "random", "simple")
	c.Games = 10
	res, err := Run(ctx, c, nil)
	require.ErrorIs(t, err, context.Canceled)
	require.False(t, res.Complete)
	require.Len(t, res.Ratings, 2, "what was played is still rated")
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(c *Config)
		want   string
	}{
		{name: "one player", change: func(c *Config) { c.Players = c.Players[:1] }, want: "at least 2"},
		{name: "twice", change: func(c *Config) { c.Players = []string{"random", "random"} }, want: "twice"},
		{name: "no games", change: func(c *Config) { c.Games = 0 }, want: "games per pair"},
		{name: "no game", change: func(c *Config) { c.Game = "" }, want: "no game"},
		{name: "no family", change: func(c *Config) { c.Family = nil }, want: "no Family"},
		{name: "timing untimed", change: func(c *Config) { c.Timing = true }, want: "needs Timed"},
		{name: "negative workers", change: func(c *Config) { c.Workers = -1 }, want: "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := roundRobin(t, "submarine", "random", "simple")
			c.Games = 1
			require.NoError(t, c.Validate())
			tt.change(&c)
			err := c.Validate()
			require.ErrorIs(t, err, ErrConfig)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

// TestFamilyErrorsStop: a pair whose family cannot be built, or plays
// another game, stops the tournament with an error naming the pair.
func TestFamilyErrorsStop(t *testing.T) {
	c := roundRobin(t, "submarine", "random", "simple", "nobody")
	c.Games = 2
	_, err := Run(context.Background(), c, nil)
	require.ErrorContains(t, err, "random against nobody")
	require.ErrorContains(t, err, "nobody")

	c = roundRobin(t, "battleship", "gridbot", "bs-random")
	c.Game, c.Games = "submarine", 2
	_, err = Run(context.Background(), c, nil)
	require.ErrorIs(t, err, ErrConfig)
	require.ErrorContains(t, err, "plays the battleship game, not submarine")
}

// TestEveryGameFullSize: a round robin of three AIs of each game plays
// every pair its games, rates the strong above the weak and repeats itself
// under the same seed whatever the number of workers.
func TestEveryGameFullSize(t *testing.T) {
	race.SkipFullSize(t)
	tests := []struct {
		game        string
		players     []string
		games       int
		best, worst string
	}{
		{game: "submarine", players: []string{"random", "stateplayer2", "simple"}, games: 10, best: "stateplayer2", worst: "random"},
		{game: "battleship", players: []string{"bs-random", "density", "gridbot"}, games: 4, worst: "bs-random"},
		{game: "abilities", players: []string{"ab-random", "ab-density", "ab-plain"}, games: 6, best: "ab-density"},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			c := roundRobin(t, tt.game, tt.players...)
			c.Games, c.Seed, c.Workers, c.Bootstrap = tt.games, 3, 2, 50
			res, err := Run(context.Background(), c, nil)
			require.NoError(t, err)
			require.True(t, res.Complete)
			require.Len(t, res.Pairs, 3)
			for k, p := range res.Pairs {
				require.Equal(t, tt.games, p.Wins+p.Draws+p.Losses, "pair %s-%s", p.A, p.B)
				require.Equal(t, PairSeed(3, k), p.Seed)
			}
			for _, rt := range res.Ratings {
				require.Equal(t, 2*tt.games, rt.Games, rt.Name)
			}
			if tt.best != "" {
				require.Equal(t, tt.best, res.Ratings[0].Name, "%+v", res.Ratings)
			}
			if tt.worst != "" {
				require.Equal(t, tt.worst, res.Ratings[2].Name, "%+v", res.Ratings)
			}

			c.Workers = 1
			again, err := Run(context.Background(), c, nil)
			require.NoError(t, err)
			require.Equal(t, res, again, "the same seed plays the same tournament")
		})
	}
}

// TestEveryGameQuick is TestEveryGameFullSize's plumbing with fast AIs,
// under the race detector too: every game's pairs play all their games on
// several workers, timed.
func TestEveryGameQuick(t *testing.T) {
	for game, players := range map[string][]string{
		"submarine":  {"random", "simple"},
		"battleship": {"bs-random", "gridbot", "bs-random@again"},
		"abilities":  {"ab-random", "ab-plain"},
	} {
		t.Run(game, func(t *testing.T) {
			c := roundRobin(t, game, players...)
			c.Games, c.Seed, c.Workers, c.Bootstrap, c.Timing, c.Timed = 3, 8, 2, 20, true, timedGames
			res, err := Run(context.Background(), c, nil)
			require.NoError(t, err)
			require.Len(t, res.Pairs, len(players)*(len(players)-1)/2)
			for _, p := range res.Pairs {
				require.Equal(t, 3, p.Wins+p.Draws+p.Losses)
			}
			for _, rt := range res.Ratings {
				require.Equal(t, 3*(len(players)-1), rt.Timing.Decisions, rt.Name)
			}
		})
	}
}

// TestShardsAddUpToRun: shards cut anywhere in the pair-after-pair order of
// games, pairs split across shards included, sum to Run's pairs, and
// FromPairs rates them exactly as Run.
func TestShardsAddUpToRun(t *testing.T) {
	c := roundRobin(t, "submarine", "random", "simple", "stateplayer2")
	c.Games, c.Seed, c.Workers, c.Bootstrap = 7, 4, 2, 100
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
