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
	bs := battleship.DefaultRules()
	fleet := battleship.Placement{{0, 1}}
	result := func(winner int, started bool) *game.Result {
		return &game.Result{Winner: winner, Count: game.Count{Shots: [2]int{30, 20}}, Started: started}
	}
	tests := []struct {
		name string
		end  func(e *End[*battleship.Game, battleship.Placement]) string
		e    End[*battleship.Game, battleship.Placement]
		want string
	}{
		{"battleship win", bsEndText, End[*battleship.Game, battleship.Placement]{Result: result(1, true), Seat: 1},
			"you win: 20 shots (the enemy fired 30)\n"},
		{"battleship loss", bsEndText, End[*battleship.Game, battleship.Placement]{Result: result(0, true), Seat: 1},
			"you lose: the enemy sank your fleet in 30 shots (you fired 20)\n"},
		{"battleship draw", bsEndText, End[*battleship.Game, battleship.Placement]{Result: result(-1, true), Seat: 0},
			"draw after 50 shots\n"},
		{"battleship resigned", bsEndText, End[*battleship.Game, battleship.Placement]{Result: result(1, true), Seat: 0, Resigned: true},
			"you lose: you resigned (you fired 30 shots, the enemy 20)\n"},
		{"abilities win", abEndText, End[*battleship.Game, battleship.Placement]{Result: result(0, true), Seat: 0},
			"you win: 30 cells fired at (the enemy fired at 20)\n"},
		{"abilities loss", abEndText, End[*battleship.Game, battleship.Placement]{Result: result(1, true), Seat: 0},
			"you lose: the enemy sank your fleet firing at 20 cells (you fired at 30)\n"},
		{"abilities draw", abEndText, End[*battleship.Game, battleship.Placement]{Result: result(-1, true), Seat: 1},
			"draw after 50 cells fired at\n"},
		{"with the enemy fleet", bsEndText,
			End[*battleship.Game, battleship.Placement]{Result: result(-1, true), Placements: [2]battleship.Placement{nil, fleet}},
			"the enemy fleet: " + bs.ShipCoord(fleet[0], false) + "\ndraw after 50 shots\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.end(&tc.e))
		})
	}
}

// bsEndText is what fleetEnd writes in the Battleship game's words.
func bsEndText(e *End[*battleship.Game, battleship.Placement]) string {
	var b bytes.Buffer
	fleetEnd(&b, battleship.DefaultRules(), e.Placements[1-e.Seat], e, &bsWords)
	return b.String()
}

// abEndText is what fleetEnd writes in the abilities game's words.
func abEndText(e *End[*battleship.Game, battleship.Placement]) string {
	var b bytes.Buffer
	fleetEnd(&b, battleship.DefaultRules(), e.Placements[1-e.Seat], e, &abWords)
	return b.String()
}
