package endgame_test

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// A player that knows both fleets asks for the value of each of its actions
// and plays the best one.
func Example() {
	rules := submarine.DefaultRules()
	s, err := endgame.Shared(rules, endgame.Options{})
	if err != nil {
		panic(err)
	}
	// Our battleship (3 hp) at [1,1] and cruiser (2 hp) at [3,3] are to
	// move; the enemy's last ship, a 2-hp cruiser, is at [2,2] between them:
	// every cell of its row and column is in our reach, so after our hit it
	// cannot escape, and our next hit sinks it.
	p, err := endgame.ParsePosition(rules, "w@1,1:3 c@3,3:2 / c@2,2:2")
	if err != nil {
		panic(err)
	}
	v, err := s.Solve(p)
	if err != nil {
		panic(err)
	}
	best, err := s.Best(p)
	if err != nil {
		panic(err)
	}
	fmt.Println(v)
	fmt.Println(best.Action.Kind, rules.CellName(best.Action.To), best.Value)
	// Output:
	// win in 3
	// attack C3 win in 3
}

// A player holds its own fleet as the engine's View gives it, the enemy's
// hp, and one placement of the enemy fleet that its belief leaves (for
// belief.Joint with Count() == 1, Placement(0, nil)). Known turns that into
// the position with the player to move.
func ExampleKnown() {
	rules := submarine.DefaultRules()
	me := submarine.NewFleet(rules, submarine.Placement{6, 18, 24}) // w [1,1], c [3,3], s [4,4]
	me.HP[2], me.Alive = 0, me.Alive.Without(2)                     // our submarine was sunk
	enemyHP := [submarine.MaxShips]int8{0, 2, 0}                    // only the cruiser is left, 2 hp
	enemy := submarine.Placement{grid.None, 12, grid.None}          // at [2,2]
	p, err := endgame.Known(rules, me, enemy, enemyHP)
	if err != nil {
		panic(err)
	}
	s, err := endgame.Shared(rules, endgame.Options{})
	if err != nil {
		panic(err)
	}
	acts, err := s.Actions(p)
	if err != nil {
		panic(err)
	}
	fmt.Println(p)
	for _, a := range acts[:3] {
		fmt.Println(a.Action.Kind, rules.CellName(a.Action.To), a.Value)
	}
	// Output:
	// w@1,1:3 c@3,3:2 / c@2,2:2
	// attack C3 win in 3
	// attack A1 draw
	// attack B1 draw
}
