package audit_test

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// One 2-hp ship a side. Both opening attacks hit, so both ships are located
// with 1 hp left and seat 0 could sink seat 1 at once; instead it moves next
// to it and is sunk.
func Example() {
	r := &submarine.Rules{Board: grid.MustBoard(5, 5, nil), Fleet: []submarine.ShipSpec{{Name: "c", HP: 2}}, DrawLimit: 100}
	at := func(x, y int) grid.Cell { c, _ := r.Board.At(x, y); return c }
	a, err := audit.New(r, audit.Options{})
	if err != nil {
		panic(err)
	}
	rep, err := a.Game([2]submarine.Placement{{at(0, 0)}, {at(1, 1)}}, 0, []submarine.Action{
		submarine.AttackAt(at(1, 1)), submarine.AttackAt(at(0, 0)), // both hit
		submarine.MoveTo(0, at(0, 1)), // into the enemy's reach
		submarine.AttackAt(at(0, 1)),  // sunk
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("known after", rep.Known, "actions; loser seat", rep.Loser)
	fmt.Println(rep.Throw.Describe(r), "proven:", rep.Throw.Proven())
	// Output:
	// known after 2 actions; loser seat 0
	// action 3, move c to A2: win in 1 -> loss in 1 proven: true
}
