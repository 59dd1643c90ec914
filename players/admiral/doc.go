// Package admiral is Kaisen's strongest submarine AI, admiral, and its
// series variant admiral-series (docs/admiral.md): exact joint beliefs of
// the enemy fleet and of its own exposure, a determinized expectimax over
// sampled enemy placements, an online model of the opponent's policy and an
// exact endgame solver.
//
// The package registers both players in the players registry from its init
// (players.Register), in the places the registry keeps for them: import it,
// even blank, to build them by name (players.New("admiral", ...)). The
// joint chart it shares with joint-greedy is package players/chart.
package admiral
