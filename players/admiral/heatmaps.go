package admiral

import (
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/players"
)

// Admiral draws the heatmaps of the belief players (players.HeatAny,
// explain.Mapper): the marginal of every living enemy ship and HeatAny, and
// HeatAny of its own fleet as it believes the enemy knows it.
var _ explain.Mapper = (*Admiral)(nil)

// Heatmaps implements explain.Mapper: its exact joint beliefs, or the
// per-ship ones on boards too large for them.
func (a *Admiral) Heatmaps() []explain.Heatmap {
	if a.enemyJ != nil && a.ownJ != nil {
		return players.JointHeatmaps(a.rules, a.enemyJ, a.ownJ)
	}
	return players.ShipsHeatmaps(a.rules, &a.enemyS, &a.ownS)
}
