package abilities_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// TestPublicView plays scripted actions (seat 0 Humans, seat 1 AI) and
// checks what a spectator sees of each: only what both seats are told.
func TestPublicView(t *testing.T) {
	type seen struct {
		seat  int
		text  string // "": nothing is public
		shots []game.Shot
		hp    [2][]int
	}
	hidden := seen{}
	for _, tt := range []struct {
		name string
		opt  abilities.Options
		acts []abilities.Action
		want []seen
	}{
		{"a spent false miss is a miss, told with the answer", abilities.Options{},
			[]abilities.Action{shoot(0), defend(true), move(13, 12)},
			[]seen{hidden, {0, "shoots: A1 miss", []game.Shot{{At: 0}}, [2][]int{{11}, {11}}}, {1, "moves a 1-deck", nil, [2][]int{{11}, {11}}}}},
		{"a declined false miss is a hit", abilities.Options{},
			[]abilities.Action{shoot(0), defend(false)},
			[]seen{hidden, {0, "shoots: A1 hit", []game.Shot{{At: 0, Hit: true}}, [2][]int{{11}, {10}}}}},
		{"a hidden move is not public", abilities.Options{HideMoves: true},
			[]abilities.Action{shoot(0), defend(true), move(13, 12)},
			[]seen{hidden, {0, "shoots: A1 miss", []game.Shot{{At: 0}}, [2][]int{{11}, {11}}}, hidden}},
		{"a shot without a question is public at once", abilities.Options{},
			[]abilities.Action{shoot(35)},
			[]seen{{0, "shoots: F6 miss", []game.Shot{{At: 35}}, [2][]int{{11}, {11}}}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, abilities.Humans, abilities.AI, tt.opt)
			v := abilities.NewPublicView(g)
			require.Equal(t, [2]string{"humans", "ai"}, v.Public().Sides)
			require.Equal(t, []int{11}, v.Public().HP)
			for i, a := range tt.acts {
				st, err := g.Apply(a)
				require.NoError(t, err, "action %d", i+1)
				var e game.Seen
				ok := v.See(&st, nil, &e)
				w := tt.want[i]
				require.Equal(t, w.text != "", ok, "action %d %v", i+1, a)
				if !ok {
					continue
				}
				require.Equal(t, w.text, e.Text, "action %d", i+1)
				require.Equal(t, w.shots, e.Shots, "action %d", i+1)
				require.Equal(t, w.hp, e.HP, "action %d", i+1)
				require.Equal(t, grid.None, e.At)
				require.Equal(t, w.seat, e.Seat, "action %d: the attacker", i+1)
			}
		})
	}
}

// TestPublicViewIllegal: an illegal action changes nothing and shows
// nothing.
func TestPublicViewIllegal(t *testing.T) {
	g := newGame(t, abilities.Humans, abilities.AI, abilities.Options{})
	v := abilities.NewPublicView(g)
	st, err := g.Apply(shoot(-1))
	require.ErrorIs(t, err, abilities.ErrIllegal)
	var e game.Seen
	require.False(t, v.See(&st, err, &e))
}
