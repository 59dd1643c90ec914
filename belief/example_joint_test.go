package belief_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

func ExampleJoint() {
	r := submarine.DefaultRules() // 5x5, ships w c s
	enemy, err := belief.NewJoint(r, 0)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d placements, %.2f bits\n", enemy.Count(), enemy.Entropy())

	// I attacked [1,1] (cell 6): the submarine was hit and sank, w splashed.
	_ = enemy.Observe(submarine.Event{Mine: true, Kind: submarine.Attack, At: 6, Hit: 2, Sunk: true, Near: submarine.ShipMask(0).With(0)}, belief.Enemy)
	// The enemy attacked [0,0] (cell 0): a living enemy ship is
	// within 1 of it; c cannot be (it is farther than 1 from [1,1]), so w is.
	_ = enemy.Observe(submarine.Event{Kind: submarine.Attack, At: 0, Hit: submarine.NoShip}, belief.Enemy)
	fmt.Printf("%d placements, %.2f bits\n", enemy.Count(), enemy.Entropy())
	fmt.Printf("P(w on [0,0]) = %.3f, P(attack on [0,1] hits) = %.3f\n", enemy.ShipProb(0, 0), enemy.CellProb(5))
	fmt.Print(belief.Heatmap(r.Board, enemy.Marginal(0), belief.Percent))
	fmt.Println(enemy.Sample(rand.New(rand.NewPCG(1, 2)), nil))
	// Output:
	// 13800 placements, 13.75 bits
	// 48 placements, 5.58 bits
	// P(w on [0,0]) = 0.333, P(attack on [0,1] hits) = 0.333
	//  33  33   .   .   .
	//  33   .   .   .   .
	//   .   .   .   .   .
	//   .   .   .   .   .
	//   .   .   .   .   .
	// [5 13 -1]
}
