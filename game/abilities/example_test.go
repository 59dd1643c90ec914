package abilities_test

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Seat 1 (Humans) shoots the AI's 4-deck; the AI, asked, answers with its
// false miss: the shooter hears "miss" and its turn ends.
func ExampleGame_Apply() {
	base, _ := battleship.NewRules(grid.MustBoard(6, 6, nil), []int{4, 1})
	r, _ := abilities.NewRules(base, abilities.AI, abilities.Humans, abilities.Options{})
	fleet := battleship.Placement{{0, 1, 2, 3}, {35}}
	g, _ := abilities.NewGame(r, fleet, fleet, 1)

	st, _ := g.Apply(abilities.Action{Kind: abilities.Shoot, At: 2})
	q := st.Views[0].Ask
	fmt.Println("seat", q.Seat, "is asked about cell", q.At, "- false miss?", q.Ask == abilities.AskFalseMiss)

	st, _ = g.Apply(abilities.Action{Kind: abilities.Defend, Use: true})
	fmt.Println("shooter hears:", st.Views[1].Cells[0].Outcome, "- defender knows it was a false miss:", st.Views[0].Cells[0].FalseMiss)
	fmt.Println("next to act: seat", g.ToAct())
	// Output:
	// seat 0 is asked about cell 2 - false miss? true
	// shooter hears: miss - defender knows it was a false miss: true
	// next to act: seat 0
}
