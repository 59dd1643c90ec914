package players_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	_ "github.com/kaisen-ai/kaisen/players/admiral"
)

// TestHeatmapsFullSize plays games between the belief players and checks every
// picture they draw against the real position: one map per living enemy
// ship, each a distribution (it sums to 1) that gives the ship's real cell
// a positive probability; "any ship" is their sum; the exposure map gives
// every living own ship's cell a positive probability and, for the exact
// joint beliefs, sums to the number of living own ships. Rocks are 0.
func TestHeatmapsFullSize(t *testing.T) {
	race.SkipFullSize(t)
	rocky := &submarine.Rules{Board: grid.MustBoard(6, 5, []grid.Cell{0, 5, 15, 24, 29}),
		Fleet: submarine.DefaultFleet(), DrawLimit: 200}
	tests := []struct {
		p0, p1 string
		exact  [2]bool // the exposure is an exact joint belief
	}{
		{"hirota", "stateplayer2", [2]bool{true, false}},
		{"admiral", "joint-greedy", [2]bool{true, true}},
	}
	for _, r := range []*submarine.Rules{submarine.DefaultRules(), rocky} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s-%s-%dx%d", tt.p0, tt.p1, r.Board.Width(), r.Board.Height()), func(t *testing.T) {
				var p [2]players.Player
				for s, name := range [2]string{tt.p0, tt.p1} {
					f, err := players.New(name, r, nil)
					require.NoError(t, err)
					p[s] = f(rand.New(rand.NewPCG(7, uint64(s))))
				}
				g, err := submarine.NewGame(r, p[0].Place(), p[1].Place(), 0)
				require.NoError(t, err)
				var v submarine.View
				for s := range 2 {
					g.ViewInto(s, &v)
					p[s].Observe(submarine.Event{Kind: submarine.Invalid}, &v)
				}
				for n := 0; n < 40 && g.Status() == game.Running; n++ {
					s := g.ToAct()
					a := p[s].Act()
					checkHeatmaps(t, r, p[s].(explain.Mapper).Heatmaps(), g.Fleet(1-s), g.Fleet(s), tt.exact[s])
					st, err := g.Apply(a)
					require.NoError(t, err)
					g.ViewInto(s, &v)
					p[s].Observe(st.Actor, &v)
					g.ViewInto(1-s, &v)
					p[1-s].Observe(st.Other, &v)
				}
			})
		}
	}
}

func checkHeatmaps(t *testing.T, r *submarine.Rules, hs []explain.Heatmap, enemy, own submarine.Fleet, exact bool) {
	t.Helper()
	b := r.Board
	sum := func(h explain.Heatmap) float64 {
		s := 0.0
		for _, v := range h.Cells {
			s += v
		}
		return s
	}
	var want []string
	for i, s := range r.Fleet {
		if enemy.Alive.Has(i) {
			want = append(want, explain.SideEnemy+" "+s.Name)
		}
	}
	want = append(want, explain.SideEnemy+" "+players.HeatAny, explain.SideOwn+" "+players.HeatAny)
	var got []string
	byName := map[string]explain.Heatmap{}
	for _, h := range hs {
		got = append(got, h.Side+" "+h.Name)
		byName[h.Side+" "+h.Name] = h
		require.Equal(t, b.Width(), h.W)
		require.Equal(t, b.Height(), h.H)
		require.Len(t, h.Cells, b.Size())
		for _, c := range b.Rocks() {
			require.Zero(t, h.Cells[c], "rock %d in %s %s", c, h.Side, h.Name)
		}
	}
	require.Equal(t, want, got)
	anyShip := make([]float64, b.Size())
	for i, s := range r.Fleet {
		if !enemy.Alive.Has(i) {
			continue
		}
		h := byName[explain.SideEnemy+" "+s.Name]
		require.InDelta(t, 1, sum(h), 3e-3, "enemy %s", s.Name)
		require.Positive(t, h.Cells[enemy.Pos[i]], "the real cell of enemy %s", s.Name)
		for c, v := range h.Cells {
			anyShip[c] += v
		}
	}
	for c, v := range byName[explain.SideEnemy+" "+players.HeatAny].Cells {
		require.InDelta(t, min(anyShip[c], 1), v, 3e-3, "cell %d", c)
	}
	exposure := byName[explain.SideOwn+" "+players.HeatAny]
	living := 0
	for i := range r.Fleet {
		if own.Alive.Has(i) {
			living++
			require.Positive(t, exposure.Cells[own.Pos[i]], "own ship %d", i)
		}
	}
	if exact {
		require.InDelta(t, float64(living), sum(exposure), 3e-3)
	}
}
