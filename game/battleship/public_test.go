package battleship

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// TestPublicView: every shot is public with its answer, and the cells
// afloat follow (a shot at a cell shot before counts nothing).
func TestPublicView(t *testing.T) {
	r := mustRules(t, grid.MustBoard(4, 4, nil), 2, 1)
	g, err := NewGame(r, Placement{{0, 1}, {15}}, Placement{{12, 13}, {3}}, 0)
	require.NoError(t, err)
	v := NewPublicView(g)
	require.Equal(t, []int{3}, v.Public().HP)
	require.Equal(t, []string{"A", "B", "C", "D"}, v.Public().Cols)
	for _, tt := range []struct {
		at   grid.Cell
		text string
		hit  bool
		sunk []grid.Cell
		hp   [2][]int
	}{
		{3, "shoots D1: kill", true, []grid.Cell{3}, [2][]int{{3}, {2}}},
		{3, "shoots D1: kill (shot before)", false, []grid.Cell{3}, [2][]int{{3}, {2}}},
		{5, "shoots B2: miss", false, nil, [2][]int{{3}, {2}}},
		{-1, "shoots off the board or at a rock and forfeits", false, nil, [2][]int{{3}, {2}}},
	} {
		st, _ := g.Apply(tt.at)
		var e game.Seen
		require.True(t, v.See(&st, nil, &e))
		require.Equal(t, tt.text, e.Text)
		require.Equal(t, tt.hit, e.Hit)
		require.Equal(t, tt.sunk, e.Sunk)
		require.Equal(t, tt.hp, e.HP)
		if tt.at < 0 {
			require.Equal(t, grid.None, e.At)
		}
	}
}
