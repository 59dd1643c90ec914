package human

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
)

// TestFleetEndWords: both games on a Battleship board word every result
// (a win, a loss, a draw, a resignation) with the person's and the
// enemy's shots in the right places, and list the enemy fleet.
func TestFleetEndWords(t *testing.T) {
	r := battleship.DefaultRules()
	fleet := battleship.Placement{{0, 1}}
	tests := []struct {
		name     string
		words    *fleetWords
		winner   int  // the winning seat, -1 on a draw
		seat     int  // the person's
		resigned bool // the person resigned
		enemy    battleship.Placement
		want     string
	}{
		{"battleship win", &bsWords, 1, 1, false, nil, "you win: 20 shots (the enemy fired 30)\n"},
		{"battleship loss", &bsWords, 0, 1, false, nil, "you lose: the enemy sank your fleet in 30 shots (you fired 20)\n"},
		{"battleship draw", &bsWords, -1, 0, false, nil, "draw after 50 shots\n"},
		{"battleship resigned", &bsWords, 1, 0, true, nil, "you lose: you resigned (you fired 30 shots, the enemy 20)\n"},
		{"abilities win", &abWords, 0, 0, false, nil, "you win: 30 cells fired at (the enemy fired at 20)\n"},
		{"abilities loss", &abWords, 1, 0, false, nil, "you lose: the enemy sank your fleet firing at 20 cells (you fired at 30)\n"},
		{"abilities draw", &abWords, -1, 1, false, nil, "draw after 50 cells fired at\n"},
		{"the enemy fleet", &bsWords, -1, 0, false, fleet,
			"the enemy fleet: " + r.ShipCoord(fleet[0], false) + "\ndraw after 50 shots\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := &End[*battleship.Game, battleship.Placement]{Seat: tc.seat, Resigned: tc.resigned,
				Result: &game.Result{Winner: tc.winner, Count: game.Count{Shots: [2]int{30, 20}}, Started: true}}
			var b bytes.Buffer
			require.True(t, fleetEnd(&b, r, tc.enemy, e, tc.words))
			require.Equal(t, tc.want, b.String())
		})
	}
}
