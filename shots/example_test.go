package shots_test

import (
	"context"
	"fmt"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/shots"
)

// gridbot shoots alone at 200 uniformly placed fleets of a 6x6 board:
// the same seed gives the same counts on any number of workers.
func ExampleRun() {
	board, err := grid.NewBoard(6, 6, nil)
	if err != nil {
		panic(err)
	}
	rules, err := battleship.NewRules(board, []int{3, 2, 1, 1})
	if err != nil {
		panic(err)
	}
	player, err := bsplayers.New("gridbot", rules, nil)
	if err != nil {
		panic(err)
	}
	placer, err := bsbelief.NewStylePlacer(rules, "uniform")
	if err != nil {
		panic(err)
	}
	res, err := shots.Run(context.Background(), shots.Config{
		Rules: rules, Player: player, Placer: placer.Place, Seed: 1, Hi: 200, Workers: 2})
	if err != nil {
		panic(err)
	}
	s := shots.Summarize("gridbot", res.Shots, res.Moves)
	fmt.Printf("%d games: mean %.2f, median %.1f, p90 %d, max %d\n", s.Games, s.Mean, s.Median, s.P90, s.Max)
	// Output: 200 games: mean 20.53, median 21.0, p90 26, max 31
}
