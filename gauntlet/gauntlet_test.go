package gauntlet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/gauntlet"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// config is a gauntlet of bot against pool in game, built from the games
// registry as kaisen gauntlet builds it.
func config(t *testing.T, game, bot string, games_ int, pool ...string) gauntlet.Config {
	t.Helper()
	g, err := games.Lookup(game)
	require.NoError(t, err)
	cfg := arena.DefaultConfig()
	cfg.Game = game
	return gauntlet.Config{Game: game, Bot: bot, Pool: pool, Games: games_, Seed: 1, Workers: 2,
		Family: func(k int) (arena.Family, error) {
			return g.Family(cfg, games.Entrant{Name: bot}, games.Entrant{Name: pool[k]})
		}}
}

// steady is res without what differs between two runs of one gauntlet
// (the clock, the workers).
func steady(res gauntlet.Result) gauntlet.Result {
	res.Elapsed, res.Workers = 0, 0
	return res
}

// TestRunReproducible: the same seed gives the same result whatever the
// workers, the games in order, every pair on one deal with seats swapped.
func TestRunReproducible(t *testing.T) {
	var results []gauntlet.Result
	for _, workers := range []int{1, 3} {
		c := config(t, "submarine", "state", 10, "random", "simple")
		c.Workers = workers
		res, err := gauntlet.Run(context.Background(), c, nil)
		require.NoError(t, err)
		require.True(t, res.Complete)
		results = append(results, steady(res))
	}
	require.Equal(t, results[0], results[1])
	res := results[0]
	require.Len(t, res.List, 20)
	for i, g := range res.List {
		require.Equal(t, i, g.Index)
		require.Equal(t, i%2, g.Seat, "the bot sits in seat 0 in even games")
		if i%2 == 1 {
			require.Equal(t, res.List[i-1].Seed, g.Seed, "a pair is one deal")
		}
	}
	require.Equal(t, 10, res.Opponents[0].WDL.Games())
	require.Equal(t, 5, res.Opponents[0].Penta.Pairs())
	require.Equal(t, 20, res.Overall.WDL.Games())
	require.Equal(t, 10, res.Overall.Penta.Pairs())
}

// TestRunResumed: a gauntlet given the results of its first games plays
// only the others and ends on the uninterrupted result.
func TestRunResumed(t *testing.T) {
	var played []arena.GameResult
	c := config(t, "battleship", "gridbot", 6, "bs-random", "gridbot")
	c.Record = func(_, _ string, r *arena.GameResult, _ []byte) error { played = append(played, *r); return nil }
	want, err := gauntlet.Run(context.Background(), c, nil)
	require.NoError(t, err)
	require.Len(t, played, 12)
	for _, k := range []int{1, 6, 9} {
		c := config(t, "battleship", "gridbot", 6, "bs-random", "gridbot")
		var again int
		c.Done = played[:k]
		c.Record = func(_, _ string, _ *arena.GameResult, _ []byte) error { again++; return nil }
		got, err := gauntlet.Run(context.Background(), c, nil)
		require.NoError(t, err)
		require.Equal(t, steady(want), steady(got), "resumed after %d games", k)
		require.Equal(t, 12-k, again, "only the missing games are played")
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(c *gauntlet.Config)
	}{
		{"odd games", func(c *gauntlet.Config) { c.Games = 3 }},
		{"no pool", func(c *gauntlet.Config) { c.Pool = nil }},
		{"twice", func(c *gauntlet.Config) { c.Pool = []string{"random", "random"} }},
		{"no family", func(c *gauntlet.Config) { c.Family = nil }},
		{"no bot", func(c *gauntlet.Config) { c.Bot = "" }},
		{"workers", func(c *gauntlet.Config) { c.Workers = -1 }},
		{"done", func(c *gauntlet.Config) { c.Done = make([]arena.GameResult, 5) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := config(t, "submarine", "random", 2, "random")
			tt.edit(&c)
			require.ErrorIs(t, c.Validate(), gauntlet.ErrConfig)
			_, err := gauntlet.Run(context.Background(), c, nil)
			require.ErrorIs(t, err, gauntlet.ErrConfig)
		})
	}
}

// TestCancelled: a cancelled gauntlet returns the games played, not
// complete, with the context's error.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := gauntlet.Run(ctx, config(t, "submarine", "random", 4, "random", "simple"), nil)
	require.ErrorIs(t, err, context.Canceled)
	require.False(t, res.Complete)
	require.Empty(t, res.Opponents, "no row for an opponent never played")
	var table bytes.Buffer
	require.NoError(t, res.WriteTable(&table))
	require.Contains(t, table.String(), "stopped early: 0 of 8 games played")
	require.NotContains(t, table.String(), "NaN")
}

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

// TestGolden: the table, the JSON and the web page of a gauntlet with a
// perfect score on one side (-inf) and an even one on the other; the
// clock's readings are fixed.
func TestGolden(t *testing.T) {
	dir := t.TempDir()
	c := config(t, "submarine", "random", 6, "random", "state")
	c.Replays = dir
	var rendered []string
	c.Render = func(replay, page string) error {
		rendered = append(rendered, page)
		_, err := os.Stat(replay)
		return err
	}
	var lines []gauntlet.Progress
	res, err := gauntlet.Run(context.Background(), c, func(p gauntlet.Progress) { lines = append(lines, p) })
	require.NoError(t, err)
	require.Len(t, rendered, 12, "a page per replay")
	require.Equal(t, gauntlet.Progress{Done: 12, Total: 12, Line: lines[len(lines)-1].Line}, lines[len(lines)-1])
	require.Contains(t, lines[len(lines)-1].Line, "Score ")
	res.Elapsed, res.Workers = 1500*time.Millisecond, 2
	var table, page bytes.Buffer
	require.NoError(t, res.WriteTable(&table))
	require.NoError(t, res.WriteHTML(&page, "report.html.replays"))
	data, err := json.MarshalIndent(res, "", "  ")
	require.NoError(t, err)
	golden(t, "table.golden", table.Bytes())
	golden(t, "report.golden.html", page.Bytes())
	golden(t, "result.golden.json", append(data, '\n'))
}
