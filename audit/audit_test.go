package audit_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/replay"
)

// duel is 5x5 with one 2-hp ship a side: seat 0 on [0,0], seat 1 on [1,1].
// After both opening attacks hit, both ships are located (a hit tells its
// cell) and have 1 hp, and seat 0 is to move with seat 1 in its reach: a
// win at once for seat 0.
func duel(t *testing.T) (*submarine.Rules, [2]submarine.Placement, func(x, y int) grid.Cell) {
	t.Helper()
	r := &submarine.Rules{Board: grid.MustBoard(5, 5, nil), Fleet: []submarine.ShipSpec{{Name: "c", HP: 2}}, DrawLimit: 100}
	c := func(x, y int) grid.Cell {
		cell, ok := r.Board.At(x, y)
		require.True(t, ok)
		return cell
	}
	return r, [2]submarine.Placement{{c(0, 0)}, {c(1, 1)}}, c
}

func TestConstructedGames(t *testing.T) {
	r, place, c := duel(t)
	opening := []submarine.Action{submarine.AttackAt(c(1, 1)), submarine.AttackAt(c(0, 0))}
	tests := []struct {
		name      string
		rest      []submarine.Action
		loser     int
		known     int
		throwPly  int // 0: no throw
		proven    bool
		before    endgame.Outcome
		throwSeat int
	}{
		{
			name:  "the winner takes its win: clean",
			rest:  []submarine.Action{submarine.AttackAt(c(1, 1))},
			loser: 1, known: 2,
		},
		{
			name: "seat 0 walks its won duel into the enemy's reach",
			// [0,1] is next to [1,1]: seat 1 sinks it.
			rest:  []submarine.Action{submarine.MoveTo(0, c(0, 1)), submarine.AttackAt(c(0, 1))},
			loser: 0, known: 2, throwPly: 3, proven: true, before: endgame.Win, throwSeat: 0,
		},
		{
			name: "seat 0 flees out of reach, then walks back in",
			// [0,4] is out of [1,1]'s reach (a draw for seat 1 to move: a
			// lone ship is never lost); seat 1 waits by attacking its own
			// cell; seat 0 comes back to [0,2], next to [1,1], and is sunk.
			rest: []submarine.Action{submarine.MoveTo(0, c(0, 4)), submarine.AttackAt(c(1, 1)),
				submarine.MoveTo(0, c(0, 2)), submarine.AttackAt(c(0, 2))},
			loser: 0, known: 2, throwPly: 5, proven: true, before: endgame.Draw, throwSeat: 0,
		},
		{
			name:  "a draw is not audited",
			rest:  []submarine.Action{submarine.MoveTo(0, c(0, 4))},
			loser: -1, known: 2,
		},
	}
	a, err := audit.New(r, audit.Options{})
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acts := append(append([]submarine.Action(nil), opening...), tt.rest...)
			rep, err := a.Game(place, 0, acts)
			require.NoError(t, err)
			assert.Equal(t, tt.loser, rep.Loser)
			assert.Equal(t, tt.known, rep.Known)
			if tt.throwPly == 0 {
				assert.Nil(t, rep.Throw)
				return
			}
			require.NotNil(t, rep.Throw)
			assert.Equal(t, tt.throwPly, rep.Throw.Ply)
			assert.Equal(t, tt.throwSeat, rep.Throw.Seat)
			assert.Equal(t, acts[tt.throwPly-1], rep.Throw.Action)
			assert.Equal(t, tt.before, rep.Throw.Before.Outcome)
			assert.Equal(t, endgame.Loss, rep.Throw.After.Outcome)
			assert.Equal(t, tt.proven, rep.Throw.Proven())
		})
	}
}

func TestNeverKnown(t *testing.T) {
	// Both attacks miss: each tells only that the attacker is within 1 of
	// the cell it attacked, so neither fleet is ever known.
	r, _, c := duel(t)
	a, err := audit.New(r, audit.Options{})
	require.NoError(t, err)
	place := [2]submarine.Placement{{c(2, 2)}, {c(4, 4)}}
	rep, err := a.Game(place, 0, []submarine.Action{submarine.AttackAt(c(2, 2)), submarine.AttackAt(c(4, 4))})
	require.NoError(t, err)
	assert.Equal(t, -1, rep.Known)
	assert.Equal(t, -1, rep.Loser)
	assert.Nil(t, rep.Throw)
}

func TestBadGames(t *testing.T) {
	r, place, c := duel(t)
	a, err := audit.New(r, audit.Options{})
	require.NoError(t, err)
	tests := []struct {
		name string
		acts []submarine.Action
	}{
		{"illegal action", []submarine.Action{submarine.AttackAt(c(4, 4))}},
		{"action after the end", []submarine.Action{submarine.AttackAt(c(1, 1)), submarine.AttackAt(c(0, 0)),
			submarine.AttackAt(c(1, 1)), submarine.AttackAt(c(0, 0))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := a.Game(place, 0, tt.acts)
			assert.ErrorIs(t, err, audit.ErrGame)
		})
	}
	_, err = audit.New(&submarine.Rules{}, audit.Options{})
	assert.ErrorIs(t, err, submarine.ErrRules)
}

// TestRandomGames audits random-vs-random games (which throw positions
// away all the time) from their replays and checks every proven throw
// against the solver's own valuation of the actions (endgame.Solver.Actions,
// not Solve): the action taken is valued a loss, and some other action of
// the position is not.
func TestRandomGames(t *testing.T) {
	r := submarine.DefaultRules()
	a, err := audit.New(r, audit.Options{Nodes: 20_000})
	require.NoError(t, err)
	s, err := endgame.Shared(r, endgame.Options{Nodes: 20_000})
	require.NoError(t, err)
	f := func(rules *submarine.Rules) players.Factory {
		fac, err := players.New("random", rules, nil)
		require.NoError(t, err)
		return fac
	}(r)
	games := 60
	if race.Enabled {
		games = 20
	}
	proven, known := 0, 0
	for seed := range uint64(games) {
		var buf bytes.Buffer
		res, err := arena.PlayGame(r, f, f, seed, &arena.GameOptions{Replay: &buf})
		require.NoError(t, err)
		rp, err := replay.ReadSubmarine(&buf)
		require.NoError(t, err)
		rep, err := a.Replay(rp)
		require.NoError(t, err)
		if res.Winner >= 0 {
			assert.Equal(t, 1-res.Winner, rep.Loser, "seed %d", seed)
		}
		if rep.Known >= 0 {
			known++
		}
		if rep.Throw == nil || !rep.Throw.Proven() {
			continue
		}
		proven++
		th := rep.Throw
		g, err := submarine.NewGame(r, rp.Placement(r, 0), rp.Placement(r, 1), 0)
		require.NoError(t, err)
		for i := range th.Ply - 1 {
			act, err := rp.Steps[i].Action.Decode(r)
			require.NoError(t, err)
			g.Apply(act)
		}
		require.Equal(t, th.Seat, g.Turn())
		pos, err := endgame.NewPosition(r, g.Fleet(th.Seat), g.Fleet(1-th.Seat))
		require.NoError(t, err)
		acts, err := s.Actions(pos)
		require.NoError(t, err)
		assert.NotEqual(t, endgame.Loss, acts[0].Value.Outcome, "seed %d: the best action keeps the position", seed)
		for _, sa := range acts {
			if sa.Action == th.Action {
				assert.Equal(t, endgame.Loss, sa.Value.Outcome, "seed %d: the thrown action", seed)
			}
		}
	}
	t.Logf("%d games: %d reached perfect information, %d proven throws", games, known, proven)
	assert.Positive(t, known, "some random games reach perfect information")
	assert.Positive(t, proven, "random players throw positions away")
}
