package submarine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// xy is the cell [x,y] of the default 5x5 board.
func xy(x, y int) grid.Cell { return grid.Cell(y*5 + x) }

func newGame(t *testing.T, p0, p1 Placement) *Game {
	t.Helper()
	g, err := NewGame(DefaultRules(), p0, p1, 0)
	require.NoError(t, err)
	return g
}

const (
	w = 0
	c = 1
	s = 2
)

// TestScriptedGame replays section 1 of the reference capture
// (shared/spec/testdata/classic-reference-transcript.txt) through the engine
// and checks every hit, near set, displacement and the final outcome.
func TestScriptedGame(t *testing.T) {
	g := newGame(t, Placement{xy(0, 0), xy(2, 0), xy(4, 0)}, Placement{xy(1, 1), xy(3, 1), xy(0, 2)})
	type want struct {
		hit    int
		near   ShipMask
		sunk   bool
		dx, dy int
	}
	steps := []struct {
		a    Action
		want want
	}{
		{AttackAt(xy(1, 1)), want{hit: w, near: ShipMask(0).With(s)}},
		{AttackAt(xy(2, 1)), want{hit: NoShip, near: ShipMask(0).With(c)}},
		{AttackAt(xy(0, 1)), want{hit: NoShip, near: ShipMask(0).With(w).With(s)}},
		{MoveTo(w, xy(1, 2)), want{hit: NoShip, dx: 0, dy: 1}},
		{MoveTo(w, xy(0, 1)), want{hit: NoShip, dx: 0, dy: 1}},
		{AttackAt(xy(3, 0)), want{hit: NoShip, near: ShipMask(0).With(c).With(s)}},
		{AttackAt(xy(0, 2)), want{hit: s, near: ShipMask(0).With(w), sunk: true}},
		{AttackAt(xy(2, 2)), want{hit: NoShip}},
		{AttackAt(xy(1, 2)), want{hit: w}},
		{MoveTo(c, xy(3, 4)), want{hit: NoShip, dx: 0, dy: 3}},
		{AttackAt(xy(1, 2)), want{hit: w, sunk: true}},
		{AttackAt(xy(2, 4)), want{hit: NoShip}},
		{MoveTo(c, xy(2, 4)), want{hit: NoShip, dx: 0, dy: 4}},
		{AttackAt(xy(4, 4)), want{hit: NoShip}},
		{AttackAt(xy(3, 4)), want{hit: c}},
		{AttackAt(xy(2, 4)), want{hit: c}},
		{AttackAt(xy(3, 4)), want{hit: c, sunk: true}},
	}
	for i, st := range steps {
		seat := g.ToAct()
		require.Equal(t, i%2, seat, "step %d", i)
		got, err := g.Apply(st.a)
		require.NoError(t, err, "step %d", i)
		require.True(t, got.Actor.Mine)
		require.False(t, got.Other.Mine)
		switch st.a.Kind {
		case Attack:
			require.Equal(t, got.Actor.At, st.a.To)
			for _, ev := range []Event{got.Actor, got.Other} {
				require.Equal(t, st.want.hit, ev.Hit, "step %d hit", i)
				require.Equal(t, st.want.near, ev.Near, "step %d near", i)
				require.Equal(t, st.want.sunk, ev.Sunk, "step %d sunk", i)
			}
		case Move:
			require.Equal(t, st.a.Ship, got.Other.Ship)
			require.Equal(t, [2]int{st.want.dx, st.want.dy}, [2]int{got.Other.DX, got.Other.DY}, "step %d", i)
			require.Equal(t, grid.None, got.Other.To, "the other side must not learn the destination")
			require.Equal(t, st.a.To, got.Actor.To)
		}
		if i < len(steps)-1 {
			require.Equal(t, game.Running, got.Status, "step %d", i)
		} else {
			require.Equal(t, game.Won, got.Status)
			require.Equal(t, 0, got.Winner)
		}
	}
	// Condition after the game: P1 kept w 3, c 1, s 1; P2 has nothing.
	v := g.View(0)
	require.Equal(t, [3]int8{3, 1, 1}, [3]int8(v.Me.HP[:3]))
	require.Equal(t, [3]int8{0, 0, 0}, [3]int8(v.EnemyHP[:3]))
	require.Equal(t, ShipMask(0), g.Fleet(1).Alive)
}

func TestRules(t *testing.T) {
	p0 := Placement{xy(0, 0), xy(2, 0), xy(4, 0)}
	p1 := Placement{xy(1, 1), xy(3, 1), xy(0, 2)}
	tests := []struct {
		name    string
		action  Action
		illegal bool
	}{
		{"attack own cell", AttackAt(xy(0, 0)), false},
		{"attack diagonal neighbour", AttackAt(xy(1, 1)), false},
		{"attack out of reach", AttackAt(xy(4, 4)), true},
		{"attack two away", AttackAt(xy(0, 2)), true},
		{"attack off board", AttackAt(grid.None), true},
		{"move along column far", MoveTo(w, xy(0, 4)), false},
		{"move along row jumping over own ship", MoveTo(w, xy(3, 0)), false},
		{"move onto own ship", MoveTo(w, xy(2, 0)), true},
		{"move onto itself", MoveTo(w, xy(0, 0)), true},
		{"move diagonal", MoveTo(w, xy(1, 1)), true},
		{"move off board", MoveTo(w, grid.None), true},
		{"move unknown ship", MoveTo(NoShip, xy(0, 1)), true},
		{"move ship index past fleet", MoveTo(5, xy(0, 1)), true},
		{"neither attack nor move", Action{Kind: Invalid}, true},
		{"move onto an enemy ship's cell", MoveTo(s, xy(4, 1)), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, p0, p1)
			st, err := g.Apply(tt.action)
			if !tt.illegal {
				require.NoError(t, err)
				require.Equal(t, game.Running, st.Status)
				return
			}
			require.ErrorIs(t, err, ErrIllegal)
			require.True(t, st.Actor.Illegal)
			require.True(t, st.Other.Illegal)
			require.Equal(t, tt.action.Kind, st.Other.Kind)
			require.Equal(t, game.Won, st.Status, "an illegal action loses at once")
			require.Equal(t, 1, st.Winner)
		})
	}
}

func TestSunkShipCannotMoveOrAttack(t *testing.T) {
	// P2's s at [0,1] is sunk by P1's first attack; P2 then moves it: illegal.
	g := newGame(t, Placement{xy(0, 0), xy(4, 4), xy(4, 0)}, Placement{xy(2, 4), xy(3, 4), xy(0, 1)})
	st, _ := g.Apply(AttackAt(xy(0, 1)))
	require.Equal(t, s, st.Actor.Hit)
	require.True(t, st.Actor.Sunk)
	require.Equal(t, ShipMask(0), st.Actor.Near, "the hit ship is not its own splash")
	require.Equal(t, int8(0), g.View(0).EnemyHP[s])
	_, err := g.Apply(MoveTo(s, xy(0, 3)))
	require.ErrorIs(t, err, ErrIllegal)
	require.ErrorContains(t, err, "sunk")
}

func TestSunkShipNoLongerReaches(t *testing.T) {
	// P2 has only its submarine near [0,0]; once it is sunk, P2 cannot attack there.
	g := newGame(t, Placement{xy(0, 0), xy(4, 4), xy(4, 2)}, Placement{xy(2, 4), xy(3, 4), xy(0, 1)})
	require.NoError(t, applyErr(g, AttackAt(xy(0, 1))))
	_, err := g.Apply(AttackAt(xy(0, 0)))
	require.ErrorIs(t, err, ErrIllegal)
}

func TestSharedCellWithEnemyAndNear(t *testing.T) {
	// Both sides may occupy the same cell; near lists the defender's other
	// ships within distance 1, and the hit ship is reported as hit.
	g := newGame(t, Placement{xy(2, 2), xy(0, 0), xy(4, 4)}, Placement{xy(2, 2), xy(3, 3), xy(1, 1)})
	st, err := g.Apply(AttackAt(xy(2, 2)))
	require.NoError(t, err)
	require.Equal(t, w, st.Actor.Hit)
	require.Equal(t, ShipMask(0).With(c).With(s), st.Actor.Near)
	require.Equal(t, int8(2), g.View(1).Me.HP[w])
	require.Equal(t, int8(2), g.View(0).EnemyHP[w], "enemy hp is public")
}

func TestDrawLimit(t *testing.T) {
	r := DefaultRules()
	r.DrawLimit = 6
	g, err := NewGame(r, Placement{xy(0, 0), xy(2, 0), xy(4, 0)}, Placement{xy(0, 4), xy(2, 4), xy(4, 4)}, 0)
	require.NoError(t, err)
	shuttle := []Action{MoveTo(w, xy(0, 1)), MoveTo(s, xy(4, 3)), MoveTo(w, xy(0, 0)), MoveTo(s, xy(4, 4))}
	for i := range 6 {
		st, err := g.Apply(shuttle[i%4])
		require.NoError(t, err)
		if i < 5 {
			require.Equal(t, game.Running, st.Status)
		} else {
			require.Equal(t, game.Drawn, st.Status)
			require.Equal(t, -1, st.Winner)
		}
	}
	require.Error(t, applyErr(g, shuttle[0]), "no action after the end")
}

func TestWinByLastSinking(t *testing.T) {
	r := DefaultRules()
	r.Fleet = []ShipSpec{{Name: "s", HP: 1}}
	g, err := NewGame(r, Placement{xy(0, 0)}, Placement{xy(1, 0)}, 1)
	require.NoError(t, err)
	st, _ := g.Apply(AttackAt(xy(0, 0)))
	require.Equal(t, 1, st.Seat)
	require.Equal(t, game.Won, st.Status)
	require.Equal(t, 1, st.Winner)
	require.Equal(t, 1, g.Winner())
}

func TestValidatePlacement(t *testing.T) {
	rocky := &Rules{Board: grid.MustBoard(3, 3, []grid.Cell{4}), Fleet: DefaultFleet(), DrawLimit: 10}
	tests := []struct {
		name  string
		rules *Rules
		p     Placement
		want  string
	}{
		{"ok", DefaultRules(), Placement{0, 1, 2}, ""},
		{"overlap", DefaultRules(), Placement{0, 0, 2}, "shares a cell"},
		{"off board", DefaultRules(), Placement{0, 25, 2}, "off the board"},
		{"negative", DefaultRules(), Placement{0, -1, 2}, "off the board"},
		{"too few", DefaultRules(), Placement{0, 1}, "2 ships placed"},
		{"too many", DefaultRules(), Placement{0, 1, 2, 3}, "4 ships placed"},
		{"on rock", rocky, Placement{0, 4, 8}, "on a rock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.rules.ValidatePlacement(tt.p)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrPlacement)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

func TestRulesValidate(t *testing.T) {
	require.NoError(t, DefaultRules().Validate())
	bad := &Rules{Board: grid.MustBoard(1, 2, nil), Fleet: []ShipSpec{{"w", 3}, {"w", 0}, {"", 1}}, DrawLimit: 0}
	err := bad.Validate()
	require.ErrorIs(t, err, ErrRules)
	for _, want := range []string{"appears twice", "hp 0", "no name", "do not fit", "draw limit"} {
		require.ErrorContains(t, err, want)
	}
}

func TestRocks(t *testing.T) {
	// Rounded 6x5 field of the 2025 dialect: corners are rocks. A move may pass
	// over a rock but not stop on one; a rock cannot be attacked.
	b, err := grid.Rounded(6, 5)
	require.NoError(t, err)
	r := &Rules{Board: b, Fleet: DefaultFleet(), DrawLimit: DefaultDrawLimit}
	at := func(x, y int) grid.Cell { c, _ := b.At(x, y); return c }
	_, err = NewGame(r, Placement{at(0, 0), at(2, 2), at(3, 3)}, Placement{at(1, 1), at(2, 1), at(3, 1)}, 0)
	require.ErrorIs(t, err, ErrPlacement)

	g, err := NewGame(r, Placement{at(1, 0), at(2, 2), at(3, 3)}, Placement{at(1, 1), at(2, 1), at(3, 1)}, 0)
	require.NoError(t, err)
	require.ErrorIs(t, applyErr(g, AttackAt(at(0, 0))), ErrIllegal, "attack on a rock")

	g, _ = NewGame(r, Placement{at(1, 0), at(2, 2), at(3, 3)}, Placement{at(1, 1), at(2, 1), at(3, 1)}, 0)
	require.ErrorIs(t, applyErr(g, MoveTo(w, at(0, 0))), ErrIllegal, "move onto a rock")

	g, _ = NewGame(r, Placement{at(0, 1), at(2, 2), at(3, 3)}, Placement{at(1, 1), at(2, 1), at(3, 1)}, 0)
	require.NoError(t, applyErr(g, MoveTo(w, at(0, 3))), "moving along the edge between rocks")
	g, _ = NewGame(r, Placement{at(1, 0), at(2, 2), at(3, 3)}, Placement{at(1, 1), at(2, 1), at(3, 1)}, 0)
	st, err := g.Apply(MoveTo(w, at(4, 0)))
	require.NoError(t, err, "a move may pass over other cells")
	require.Equal(t, 3, st.Other.DX)
}

func TestNewGameErrors(t *testing.T) {
	_, err := NewGame(DefaultRules(), Placement{0, 0, 1}, Placement{0, 1, 2}, 0)
	require.ErrorContains(t, err, "seat 0")
	_, err = NewGame(DefaultRules(), Placement{0, 1, 2}, Placement{0, 1, 2}, 2)
	require.Error(t, err)
	require.False(t, errors.Is(err, ErrPlacement))
}

func TestForfeit(t *testing.T) {
	g := newGame(t, Placement{0, 1, 2}, Placement{0, 1, 2})
	g.Forfeit(0)
	require.Equal(t, game.Won, g.Status())
	require.Equal(t, 1, g.Winner())
	g.Forfeit(1)
	require.Equal(t, 1, g.Winner(), "a decided game stays decided")
}

// applyErr applies a and returns only Apply's error.
func applyErr(g *Game, a Action) error {
	_, err := g.Apply(a)
	return err
}
