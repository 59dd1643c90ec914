package hiddenfleet_test

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/belief/hiddenfleet"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Seat 0 (Humans) fires at cell 0 of a 3x3 board where the AI's fleet is
// one 2-deck and one 1-deck, and hears "miss". With no 4-deck there is no
// lie: cell 0 is water, and the 1-deck never moves onto it. The count of
// layouts consistent with the miss drops from 24 to 14.
func ExampleTracker_Count() {
	base, _ := battleship.NewRules(grid.MustBoard(3, 3, nil), []int{2, 1})
	r, _ := abilities.NewRules(base, abilities.Humans, abilities.AI, abilities.Options{})
	tr, _ := hiddenfleet.New(r, 0)
	before, _ := tr.Count(1000, 0)
	tr.Observe(abilities.Event{Seat: 0, Mine: true, Attacker: 0, Kind: abilities.Shoot, Scan: -1,
		Cells: []abilities.CellResult{{At: 0, Outcome: battleship.Miss}}, Winner: -1, Next: 1, TurnEnd: true})
	after, _ := tr.Count(1000, 0)
	fmt.Println(before.Total, "->", after.Total, "; cell 0:", after.Cells[0], "; cell 8:", after.Cells[8])
	// Output:
	// 24 -> 14 ; cell 0: 0 ; cell 8: 6
}
