package abplayers_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/abilities"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
)

// One seeded game of the ability bot (seat 0, AI) against the random
// player (seat 1, Humans) on the default 10x10 rules.
func ExamplePlayGame() {
	r := abilities.DefaultRules()
	bot, _ := abplayers.New("ab-density", r, nil)
	random, _ := abplayers.New("ab-random", r, nil)
	res := abplayers.PlayGame(r, bot(rand.New(rand.NewPCG(1, 0)), 0), random(rand.New(rand.NewPCG(1, 1)), 1), 0)
	fmt.Println("winner: seat", res.Winner, "forfeit:", res.Forfeit, "error:", res.Err)
	// Output:
	// winner: seat 0 forfeit: -1 error: <nil>
}
