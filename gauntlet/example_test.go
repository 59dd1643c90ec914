package gauntlet_test

import (
	"context"
	"fmt"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/gauntlet"
)

// Example plays Battleship's gridbot against two opponents, 4 paired
// games each, and prints its record against each.
func Example() {
	g, _ := games.Lookup("battleship")
	cfg := arena.DefaultConfig()
	cfg.Game = g.Name
	pool := []string{"bs-random", "gridbot"}
	c := gauntlet.Config{Game: g.Name, Bot: "gridbot", Pool: pool, Games: 4, Seed: 7,
		Family: func(k int) (arena.Family, error) {
			return g.Family(cfg, games.Entrant{Name: "gridbot"}, games.Entrant{Name: pool[k]})
		}}
	res, err := gauntlet.Run(context.Background(), c, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Opponents {
		fmt.Printf("%s: %d-%d-%d, pairs %v\n", o.Name, o.WDL.Wins, o.WDL.Draws, o.WDL.Losses, o.Penta)
	}
	fmt.Printf("overall: %d games, score %.3f\n", res.Overall.WDL.Games(), res.Overall.WDL.Score())
	// Output:
	// bs-random: 4-0-0, pairs [0 0 0 0 2]
	// gridbot: 2-0-2, pairs [0 0 2 0 0]
	// overall: 8 games, score 0.750
}
