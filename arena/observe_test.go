package arena_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
)

// placements are the placement lines of a replay file, by seat order.
func placements(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []string
	for l := range strings.Lines(string(b)) {
		if strings.Contains(l, `"placement"`) {
			out = append(out, l)
		}
	}
	require.Len(t, out, 2, "one placement line per seat")
	return out
}

// TestMatchPairs: games 2k and 2k+1 share a seed, so each seat draws the
// same stream (the same fleets for two random players), with the players
// swapped; without Pairs the fleets differ.
func TestMatchPairs(t *testing.T) {
	for _, paired := range []bool{true, false} {
		dir := t.TempDir()
		m := arena.Match{Family: randomFamily(), Games: 8, Seed: 11, Workers: 2, Replays: dir, Pairs: paired}
		sum, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		require.Equal(t, paired, sum.Pairs)
		for k := range 4 {
			a := placements(t, filepath.Join(dir, arena.ReplayName(2*k)))
			b := placements(t, filepath.Join(dir, arena.ReplayName(2*k+1)))
			if paired {
				require.Equal(t, a, b, "pair %d: the same fleets in the same seats", k)
			} else {
				require.NotEqual(t, a, b, "game %d and %d: fleets of their own", 2*k, 2*k+1)
			}
		}
	}
	m := arena.Match{Family: randomFamily(), Games: 4, First: 3, Pairs: true}
	require.ErrorIs(t, m.Validate(), arena.ErrMatch, "a shard of pairs starts on a pair")
}

// TestMatchObserveStops: Observe sees the games in index order and stops
// the match at the same game whatever the number of workers; the summary
// and the replay directory hold exactly the games up to it.
func TestMatchObserveStops(t *testing.T) {
	const stopAt = 36
	run := func(workers int) (arena.Summary, []int, string) {
		dir := t.TempDir()
		var seen []int
		m := arena.Match{Family: randomFamily(), Games: 400, Seed: 5, Workers: workers, Replays: dir, Pairs: true,
			Observe: func(r *arena.GameResult) bool {
				seen = append(seen, r.Index)
				return r.Index == stopAt
			}}
		sum, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		sum.Elapsed, sum.Workers = 0, 0
		return sum, seen, dir
	}
	s1, seen1, d1 := run(1)
	s3, seen3, d3 := run(3)
	require.Equal(t, s1, s3)
	require.True(t, s1.Stopped)
	require.Equal(t, stopAt+1, s1.Games)
	require.Equal(t, 400, s1.Requested)
	require.Equal(t, seen1, seen3)
	for i, idx := range seen1 {
		require.Equal(t, i, idx, "in game-index order")
	}
	for _, d := range []string{d1, d3} {
		entries, err := os.ReadDir(d)
		require.NoError(t, err)
		require.Len(t, entries, stopAt+1, "the replays of the games counted")
	}

	// Observing without stopping changes nothing.
	plain := arena.Match{Family: randomFamily(), Games: 50, Seed: 5, Workers: 3}
	want, err := plain.Run(context.Background(), nil)
	require.NoError(t, err)
	plain.Observe = func(*arena.GameResult) bool { return false }
	got, err := plain.Run(context.Background(), nil)
	require.NoError(t, err)
	want.Elapsed, got.Elapsed = 0, 0
	require.Equal(t, want, got)
}
