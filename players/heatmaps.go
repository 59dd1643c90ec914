package players

import (
	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players/chart"
)

// HeatAny is the name of the heatmap of the probability that some ship is
// on a cell (the sum of the ships' marginals, as ships never share a cell).
const HeatAny = "any ship"

// The belief players draw, at their last action (explain.Mapper; hosts ask
// only when they record explanations):
//
//   - SideEnemy: the marginal of every living enemy ship and HeatAny;
//   - SideOwn: HeatAny of their own fleet as they believe the enemy knows it
//     (their exposure).
var (
	_ explain.Mapper = (*StatePlayer2)(nil)
	_ explain.Mapper = (*JointGreedy)(nil)
)

// heatmaps builds the heatmaps of one side from per-ship marginals: marg(i)
// for every living ship i (alive), then their sum clamped to 1. With ships
// false only the sum is drawn.
func heatmaps(r *submarine.Rules, side string, alive submarine.ShipMask, ships bool, marg func(i int) []float64) []explain.Heatmap {
	w, h := r.Board.Width(), r.Board.Height()
	sum := make([]float64, r.Board.Size())
	var out []explain.Heatmap
	for i, s := range r.Fleet {
		if !alive.Has(i) {
			continue
		}
		m := marg(i)
		for c, v := range m {
			sum[c] += v
		}
		if ships {
			out = append(out, explain.NewHeatmap(s.Name, side, w, h, m))
		}
	}
	return append(out, explain.NewHeatmap(HeatAny, side, w, h, sum))
}

// ShipsHeatmaps draws per-ship beliefs (every cell of a ship's set equally
// likely): the marginal of every living enemy ship and HeatAny on
// explain.SideEnemy, HeatAny of own on explain.SideOwn.
func ShipsHeatmaps(r *submarine.Rules, enemy, own *belief.Ships) []explain.Heatmap {
	return append(heatmaps(r, explain.SideEnemy, enemy.Alive(), true, enemy.Heat),
		heatmaps(r, explain.SideOwn, own.Alive(), false, own.Heat)...)
}

// JointHeatmaps draws exact joint beliefs, as ShipsHeatmaps.
func JointHeatmaps(r *submarine.Rules, enemy, own *belief.Joint) []explain.Heatmap {
	return append(heatmaps(r, explain.SideEnemy, enemy.Alive(), true, enemy.Marginal),
		heatmaps(r, explain.SideOwn, own.Alive(), false, own.Marginal)...)
}

// Heatmaps implements explain.Mapper: its per-ship beliefs (enemy and
// mine).
func (p *StatePlayer2) Heatmaps() []explain.Heatmap {
	return ShipsHeatmaps(p.rules, &p.enemy, &p.mine)
}

// Heatmaps implements explain.Mapper: the marginals of its two charts.
func (p *JointGreedy) Heatmaps() []explain.Heatmap {
	marg := func(c *chart.Chart) func(i int) []float64 {
		return func(i int) []float64 {
			m := make([]float64, p.rules.Board.Size())
			if t := c.Total(); t > 0 {
				for cell := range m {
					m[cell] = float64(c.Count(i, grid.Cell(cell))) / float64(t)
				}
			}
			return m
		}
	}
	return append(heatmaps(p.rules, explain.SideEnemy, p.enemy.Alive(), true, marg(&p.enemy)),
		heatmaps(p.rules, explain.SideOwn, p.own.Alive(), false, marg(&p.own))...)
}
