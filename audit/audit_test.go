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
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
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

// duelHP is duel with ships of hp hp.
func duelHP(t *testing.T, hp int) (*submarine.Rules, [2]submarine.Placement, func(x, y int) grid.Cell) {
	t.Helper()
	r, place, c := duel(t)
	r.Fleet[0].HP = hp
	return r, place, c
}

// TestClasses checks how each side's game went (Report.Class and the
// fields it reads) on constructed games of one ship a side, seat 0 on
// [0,0] and seat 1 on [1,1].
func TestClasses(t *testing.T) {
	attack := func(x, y int, c func(x, y int) grid.Cell) submarine.Action { return submarine.AttackAt(c(x, y)) }
	type want struct {
		winner     int
		classes    [2]audit.Class
		located    [2]int
		known      int // -1: never; else the first known position's ply
		material   string
		value      endgame.Outcome // of the first known position for seat 0
		missed     [2]int          // ply of the missed win by seat, -1 none
		sunkBefore [2]int
		sunk       [2]int
	}
	tests := []struct {
		name string
		hp   int
		acts func(c func(x, y int) grid.Cell) []submarine.Action
		want want
	}{
		{
			// Seat 0 hits [1,1]: seat 1 is located. Seat 1 attacks [2,2]
			// and misses: seat 0 is within 1 of [1,1] and not next to
			// [2,2], five cells. Seat 0 sinks seat 1 before its own fleet
			// is known.
			name: "won before perfect information", hp: 2,
			acts: func(c func(x, y int) grid.Cell) []submarine.Action {
				return []submarine.Action{attack(1, 1, c), attack(2, 2, c), attack(1, 1, c)}
			},
			want: want{winner: 0, classes: [2]audit.Class{audit.WonHidden, audit.HiddenLocated}, located: [2]int{-1, 1},
				known: -1, missed: [2]int{-1, -1}, sunkBefore: [2]int{0, 1}, sunk: [2]int{0, 1}},
		},
		{
			name: "stopped with one fleet known", hp: 2,
			acts: func(c func(x, y int) grid.Cell) []submarine.Action {
				return []submarine.Action{attack(1, 1, c), attack(2, 2, c)}
			},
			want: want{winner: -1, classes: [2]audit.Class{audit.HiddenOneSided, audit.HiddenLocated}, located: [2]int{-1, 1},
				known: -1, missed: [2]int{-1, -1}},
		},
		{
			// Both hit: 1 vs 1 in reach with seat 0 to move, a win in 1 it
			// takes.
			name: "a known win converted", hp: 2,
			acts: func(c func(x, y int) grid.Cell) []submarine.Action {
				return []submarine.Action{attack(1, 1, c), attack(0, 0, c), attack(1, 1, c)}
			},
			want: want{winner: 0, classes: [2]audit.Class{audit.WonFromWon, audit.ForcedLoss}, located: [2]int{2, 1},
				known: 2, material: "1 vs 1", value: endgame.Win, missed: [2]int{-1, -1}, sunk: [2]int{0, 1}},
		},
		{
			// The same, but seat 0 walks to [0,1] and is sunk: it missed
			// its win, seat 1 won a position lost for it.
			name: "a known win not converted", hp: 2,
			acts: func(c func(x, y int) grid.Cell) []submarine.Action {
				return []submarine.Action{attack(1, 1, c), attack(0, 0, c), submarine.MoveTo(0, c(0, 1)), attack(0, 1, c)}
			},
			want: want{winner: 1, classes: [2]audit.Class{audit.MissedWin, audit.WonFromHeld}, located: [2]int{2, 1},
				known: 2, material: "1 vs 1", value: endgame.Win, missed: [2]int{2, -1}, sunk: [2]int{1, 0}},
		},
		{
			// 3-hp ships: after both hits, 2 vs 2 in reach is a draw for
			// the side to move (whoever hits first is hit back; a lone ship
			// always has an escape).
			name: "a draw forced under perfect information", hp: 3,
			acts: func(c func(x, y int) grid.Cell) []submarine.Action {
				return []submarine.Action{attack(1, 1, c), attack(0, 0, c)}
			},
			want: want{winner: -1, classes: [2]audit.Class{audit.ForcedDraw, audit.ForcedDraw}, located: [2]int{2, 1},
				known: 2, material: "2 vs 2", value: endgame.Draw, missed: [2]int{-1, -1}},
		},
		{
			// From that draw seat 0 hits (1 vs 2, drawn for seat 1 to
			// move), seat 1 hits back (1 vs 1 in reach: seat 0 wins) and is
			// sunk: seat 1 lost a forced draw.
			name: "a forced draw thrown", hp: 3,
			acts: func(c func(x, y int) grid.Cell) []submarine.Action {
				return []submarine.Action{attack(1, 1, c), attack(0, 0, c), attack(1, 1, c), attack(0, 0, c), attack(1, 1, c)}
			},
			want: want{winner: 0, classes: [2]audit.Class{audit.WonFromHeld, audit.ForcedDraw}, located: [2]int{2, 1},
				known: 2, material: "2 vs 2", value: endgame.Draw, missed: [2]int{-1, -1}, sunk: [2]int{0, 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, place, c := duelHP(t, tt.hp)
			a, err := audit.New(r, audit.Options{})
			require.NoError(t, err)
			rep, err := a.Game(place, 0, tt.acts(c))
			require.NoError(t, err)
			w := tt.want
			assert.Equal(t, w.winner, rep.Winner)
			assert.Equal(t, w.classes, [2]audit.Class{rep.Class(0), rep.Class(1)})
			assert.Equal(t, w.located, rep.Located)
			assert.Equal(t, w.known, rep.Known)
			assert.Equal(t, w.sunkBefore, rep.SunkBefore)
			assert.Equal(t, w.sunk, rep.Sunk)
			if w.known < 0 {
				assert.Nil(t, rep.First)
			} else {
				require.NotNil(t, rep.First)
				assert.Equal(t, w.known, rep.First.Ply)
				assert.Equal(t, w.material, rep.First.Material(0))
				assert.Equal(t, w.value, rep.First.For(0).Outcome)
			}
			for seat, ply := range w.missed {
				if ply < 0 {
					assert.Nil(t, rep.Missed[seat], "seat %d", seat)
					continue
				}
				require.NotNil(t, rep.Missed[seat], "seat %d", seat)
				assert.Equal(t, ply, rep.Missed[seat].Ply)
				assert.Equal(t, seat, rep.Missed[seat].Turn)
				assert.Equal(t, endgame.Win, rep.Missed[seat].For(seat).Outcome)
			}
			for seat := range 2 {
				assert.Equal(t, seat == rep.Winner, rep.Class(seat).Won())
			}
		})
	}
}

func TestMaterial(t *testing.T) {
	r := submarine.DefaultRules()
	f := submarine.NewFleet(r, submarine.Placement{0, 1, 2})
	g := submarine.NewFleet(r, submarine.Placement{3, 4, 5})
	g.HP[0] = 1
	g.Alive = g.Alive.Without(1)
	p := audit.Point{Fleets: [2]submarine.Fleet{f, g}}
	assert.Equal(t, "3+2+1 vs 1+1", p.Material(0))
	assert.Equal(t, "1+1 vs 3+2+1", p.Material(1))
	assert.Equal(t, "never perfect information; neither fleet ever known", audit.HiddenBoth.String())
	assert.Equal(t, "Class(99)", audit.Class(99).String())
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
	assert.Equal(t, [2]int{-1, -1}, rep.Located)
	assert.Equal(t, audit.HiddenBoth, rep.Class(0))
	assert.Equal(t, audit.HiddenBoth, rep.Class(1))
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
	// A small scan budget: the test is about throws, and the scan for wins
	// not converted searches every known position of these long games.
	a, err := audit.New(r, audit.Options{Nodes: 20_000, ScanNodes: 100})
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
		rp, err := subrecord.Read(&buf)
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
		require.Equal(t, th.Seat, g.ToAct())
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
