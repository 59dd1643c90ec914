package endgame_test

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/endgame"
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
	// attack [2,2] win in 3
}
