package jobs_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/arena/arenatest"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/jobs"
	"github.com/kaisen-ai/kaisen/shard"
)

const battleshipRules = "game: battleship\nbattleship:\n  width: 6\n  height: 6\n  fleet: [3, 2]\n"

func TestMatchArena(t *testing.T) {
	rs := jobs.Seat{Name: "random"}
	m := jobs.Match{Game: "submarine", P1: jobs.Seat{Name: "simple", Weights: "move_probability: 0.9\n"}, P2: rs, Audit: true}
	got, err := m.Arena()
	require.NoError(t, err)
	require.True(t, got.Audit)
	require.IsType(t, &arena.Submarine{}, got.Family)
	bs := jobs.Match{Game: "battleship", P1: jobs.Seat{Name: "gridbot"}, P2: jobs.Seat{Name: "bs-random"}, Rules: battleshipRules}
	got, err = bs.Arena()
	require.NoError(t, err)
	require.IsType(t, &arenatest.BattleshipFamily{}, got.Family)
	require.Equal(t, battleship.Name, got.Family.Game())
	for _, tc := range []struct {
		name string
		m    jobs.Match
		is   error
		want string
	}{
		{"no player", jobs.Match{Game: "submarine", P1: rs}, jobs.ErrSpec, "both players"},
		{"no game", jobs.Match{P1: rs, P2: rs}, jobs.ErrSpec, "names its game"},
		{"unknown game", jobs.Match{Game: "chess", P1: rs, P2: rs}, nil, `"chess"`},
		{"game of other rules", jobs.Match{Game: "submarine", P1: rs, P2: rs, Rules: battleshipRules}, jobs.ErrSpec, `rules are of the "battleship" game`},
		{"bad rules", jobs.Match{Game: "submarine", P1: rs, P2: rs, Rules: "rules:\n  colour: red\n"}, config.ErrInvalid, "colour"},
		{"unknown player", jobs.Match{Game: "submarine", P1: rs, P2: jobs.Seat{Name: "nobody"}}, nil, "nobody"},
		{"bad weights", jobs.Match{Game: "submarine", P1: jobs.Seat{Name: "simple", Weights: "speed: 3\n"}, P2: rs}, config.ErrInvalid, "p1 weights"},
		{"audit of battleship", jobs.Match{Game: "battleship", P1: jobs.Seat{Name: "gridbot"}, P2: jobs.Seat{Name: "bs-random"}, Audit: true}, jobs.ErrSpec, "submarine game only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.m.Arena()
			require.ErrorContains(t, err, tc.want)
			if tc.is != nil {
				require.ErrorIs(t, err, tc.is)
			}
		})
	}
}

func TestTournamentConfig(t *testing.T) {
	tr := jobs.Tournament{Game: "submarine", Bootstrap: 7, Entries: []jobs.Entry{{Entry: "random"}, {Entry: "simple"},
		{Entry: "simple@eager", Weights: "move_probability: 0.9\n"}}}
	tc, err := tr.Config(4, 9, 2, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"random", "simple", "simple@eager"}, tc.Players)
	require.Equal(t, 3, tr.Pairs())
	require.Equal(t, [4]int{4, 9, 2, 7}, [4]int{tc.Games, int(tc.Seed), tc.Workers, tc.Bootstrap})
	fam, err := tc.Family(1, 2)
	require.NoError(t, err)
	require.Equal(t, "submarine", fam.Game())
	for _, tc := range []struct {
		name string
		t    jobs.Tournament
		want string
	}{
		{"one entry", jobs.Tournament{Game: "submarine", Entries: []jobs.Entry{{Entry: "random"}}}, "at least two entries"},
		{"entry without an AI", jobs.Tournament{Game: "submarine", Entries: []jobs.Entry{{Entry: "random"}, {Entry: "@x"}}}, `"@x" names no AI`},
		{"twice", jobs.Tournament{Game: "submarine", Entries: []jobs.Entry{{Entry: "random"}, {Entry: "random"}}}, "listed twice"},
		{"game of other rules", jobs.Tournament{Game: "submarine", Rules: battleshipRules, Entries: []jobs.Entry{{Entry: "a"}, {Entry: "b"}}}, "rules are of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.t.Config(4, 1, 1, nil)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func TestShotsConfig(t *testing.T) {
	s := jobs.Shots{Player: "gridbot", Weights: "pattern: blocks\n", Width: 6, Height: 5, Fleet: []int{3, 2}, Placer: "uniform"}
	c, err := s.Config(3, 2)
	require.NoError(t, err)
	require.Equal(t, 6, c.Rules.Board.Width())
	require.Equal(t, 5, c.Rules.Board.Height())
	for _, tc := range []struct {
		name string
		edit func(*jobs.Shots)
		want string
	}{
		{"no player", func(s *jobs.Shots) { s.Player = "" }, "names its player"},
		{"unknown player", func(s *jobs.Shots) { s.Player = "nobody" }, "nobody"},
		{"bad weights", func(s *jobs.Shots) { s.Weights = "colour: red\n" }, "colour"},
		{"no board", func(s *jobs.Shots) { s.Width = 0 }, "shots:"},
		{"fleet too big", func(s *jobs.Shots) { s.Fleet = []int{9} }, "shots:"},
		{"unknown placer", func(s *jobs.Shots) { s.Placer = "diagonal" }, "placer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := s
			tc.edit(&bad)
			_, err := bad.Config(3, 2)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// TestShardPlays: a shard plays the games of its range and its header
// names them with the run's identity; the shards of a run merge into the
// run played whole.
func TestShardPlays(t *testing.T) {
	ctx := context.Background()
	spec := jobs.Match{Game: "submarine", P1: jobs.Seat{Name: "random"}, P2: jobs.Seat{Name: "simple"}}
	m, err := spec.Arena()
	require.NoError(t, err)
	args := map[string]string{"p1": "random", "p2": "simple"}
	whole := jobs.Shard{Args: args, Seed: 5, Games: 10, Spec: shard.Spec{K: 1, N: 1}, Workers: 2}
	_, all, err := whole.Match(ctx, m, nil)
	require.NoError(t, err)
	var parts []shard.Match
	for k := 1; k <= 3; k++ {
		s := whole
		s.Spec = shard.Spec{K: k, N: 3}
		h, res, err := s.Match(ctx, m, nil)
		require.NoError(t, err)
		lo, hi := s.Spec.Range(10)
		require.Equal(t, [6]int{lo, hi - lo, 10, k, 3, 5}, [6]int{h.First, h.Count, h.Games, h.Shard, h.Shards, int(h.Seed)})
		require.Equal(t, "match", h.Command)
		require.Equal(t, args, h.Args)
		require.Equal(t, hi-lo, res.Games)
		parts = append(parts, res)
	}
	merged, err := shard.MergeMatch(parts)
	require.NoError(t, err)
	require.Equal(t, all.P1Wins, merged.P1Wins)
	require.Equal(t, all.Draws, merged.Draws)
	require.Equal(t, all.Actions, merged.Actions)
}

// TestShotsShardStopped: a shots shard stopped before its last game has
// no result, and says so.
func TestShotsShardStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	spec := jobs.Shots{Player: "gridbot", Width: 6, Height: 6, Fleet: []int{3, 2}, Placer: "uniform"}
	c, err := spec.Config(1, 1)
	require.NoError(t, err)
	s := jobs.Shard{Seed: 1, Games: 20, Spec: shard.Spec{K: 1, N: 2}, Workers: 1}
	_, _, err = s.Shots(ctx, c, spec.Player)
	require.ErrorIs(t, err, context.Canceled)
}
