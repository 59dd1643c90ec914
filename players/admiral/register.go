package admiral

import "github.com/kaisen-ai/kaisen/players"

// init registers admiral and admiral-series in the players registry, in the
// places it keeps for them.
func init() {
	players.Register(
		players.Entry{
			Name:    "admiral",
			Summary: "exact joint beliefs (enemy and own exposure), determinized expectimax over sampled enemy placements",
			Config:  "configs/admiral.yaml",
			Build:   buildAdmiral,
		},
		players.Entry{Name: "admiral-series", Summary: "admiral that learns the enemy's placement prior over a series (kaisen match --series; admiral's settings)", Config: "configs/admiral.yaml", Build: buildSeriesAdmiral},
	)
}
