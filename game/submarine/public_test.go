package submarine

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// TestPublicView plays the start of TestScriptedGame through the public
// view: attacks with their answers and splash, a move's ship and
// displacement but not its destination, and the hp; the fleets only on
// demand (Fleets).
func TestPublicView(t *testing.T) {
	g := newGame(t, Placement{xy(0, 0), xy(2, 0), xy(4, 0)}, Placement{xy(1, 1), xy(3, 1), xy(0, 2)})
	v := NewPublicView(g)
	pub := v.Public()
	require.Equal(t, []string{"w", "c", "s"}, pub.Ships)
	require.Equal(t, []string{"A", "B", "C", "D", "E"}, pub.Cols)
	require.Equal(t, []string{"1", "2", "3", "4", "5"}, pub.Rows)
	require.True(t, pub.PerShip)
	for _, tt := range []struct {
		a    Action
		text string
		at   grid.Cell
		near int
		hp   [2][]int
	}{
		{AttackAt(xy(1, 1)), "attacks B2: hit w; near: s", xy(1, 1), 8, [2][]int{{3, 2, 1}, {2, 2, 1}}},
		{AttackAt(xy(2, 1)), "attacks C2: miss; near: c", xy(2, 1), 8, [2][]int{{3, 2, 1}, {2, 2, 1}}},
		{AttackAt(xy(0, 1)), "attacks A2: miss; near: w s", xy(0, 1), 5, [2][]int{{3, 2, 1}, {2, 2, 1}}},
		{MoveTo(w, xy(1, 2)), "moves w by [+0,+1]", grid.None, 0, [2][]int{{3, 2, 1}, {2, 2, 1}}},
	} {
		st, err := g.Apply(tt.a)
		require.NoError(t, err)
		var e game.Seen
		require.True(t, v.See(&st, nil, &e))
		require.Equal(t, tt.text, e.Text)
		require.Equal(t, tt.at, e.At)
		require.Len(t, e.Near, tt.near)
		require.Equal(t, tt.hp, e.HP)
		require.Equal(t, st.Other, e.Event, "what the other side is told")
	}
	require.Equal(t, [2][]grid.Cell{{xy(0, 0), xy(2, 0), xy(4, 0)}, {xy(1, 2), xy(3, 1), xy(0, 2)}}, v.Fleets())
}
