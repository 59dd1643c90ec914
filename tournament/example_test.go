package tournament_test

import (
	"context"
	"fmt"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/tournament"
)

// A Battleship round robin: the games registry builds each pair's family.
func Example() {
	g, err := games.Lookup("battleship")
	if err != nil {
		panic(err)
	}
	cfg := arena.DefaultConfig() // the published rules of every game
	names := []string{"bs-random", "gridbot"}
	c := tournament.Config{
		Game:    g.Name,
		Players: names,
		Family: func(i, j int) (arena.Family, error) {
			return g.Family(cfg, games.Entrant{Name: names[i]}, games.Entrant{Name: names[j]})
		},
		Games: 20, Seed: 1, Workers: 1, Bootstrap: 100,
	}
	res, err := tournament.Run(context.Background(), c, nil)
	if err != nil {
		panic(err)
	}
	for _, rt := range res.Ratings {
		fmt.Printf("%s: %d-%d-%d\n", rt.Name, rt.Wins, rt.Draws, rt.Losses)
	}
	// Output:
	// gridbot: 20-0-0
	// bs-random: 0-0-20
}
