package belief_test

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

func ExampleShips() {
	r := submarine.DefaultRules() // 5x5, ships w c s
	enemy := belief.NewShips(r)

	// I attacked [1,1] (cell 6): nothing hit, the cruiser splashed.
	enemy.Observe(submarine.Event{Mine: true, Kind: submarine.Attack, At: 6, Hit: submarine.NoShip, Near: submarine.ShipMask(0).With(1)}, belief.Enemy)
	// The enemy moved its cruiser 3 to the right.
	enemy.Observe(submarine.Event{Kind: submarine.Move, At: grid.None, Hit: submarine.NoShip, Ship: 1, DX: 3}, belief.Enemy)

	for i, s := range r.Fleet {
		fmt.Printf("%s: %d cells %v\n", s.Name, enemy.Count(i), enemy.Set(i))
	}
	fmt.Print(belief.Heatmap(r.Board, enemy.Heat(1), belief.Percent))
	// Output:
	// w: 16 cells {3 4 8 9 13 14 15 16 17 18 19 20 21 22 23 24}
	// c: 5 cells {3 4 8 13 14}
	// s: 16 cells {3 4 8 9 13 14 15 16 17 18 19 20 21 22 23 24}
	//   .   .   .  20  20
	//   .   .   .  20   .
	//   .   .   .  20  20
	//   .   .   .   .   .
	//   .   .   .   .   .
}
