package arena_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/series"
)

// counter is a random player that learns across its series how many games
// it has played: it keeps the count between games, and NewGame makes the
// player of the next game.
type counter struct {
	players.Player
	rules  *submarine.Rules
	played int
}

func (c *counter) NewGame(rng *rand.Rand) { c.Player = players.NewRandom(c.rules, rng) }

func (c *counter) EndGame(e series.End) {
	c.played++
	fmt.Printf("game %d of its series, seat %d: %d played\n", e.Game, e.Seat, c.played)
}

// A Learner keeps what it learnt within its series and starts afresh in
// the next one; the other player is made fresh for every game.
func ExampleLearner() {
	rules := submarine.DefaultRules()
	learner := func(rng *rand.Rand) players.Player {
		return &counter{Player: players.NewRandom(rules, rng), rules: rules}
	}
	random := func(rng *rand.Rand) players.Player { return players.NewRandom(rules, rng) }
	m := arena.Match{
		Family: &arena.Submarine{Rules: rules,
			P1: arena.SubmarineEntrant{Name: "counter", Factory: learner},
			P2: arena.SubmarineEntrant{Name: "random", Factory: random}},
		Games: 5, Series: 3, Seed: 1, Workers: 1,
	}
	sum, err := m.Run(context.Background(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sum.Games, "games in series of", sum.Series)
	// Output:
	// game 0 of its series, seat 0: 1 played
	// game 1 of its series, seat 1: 2 played
	// game 2 of its series, seat 0: 3 played
	// game 0 of its series, seat 1: 1 played
	// game 1 of its series, seat 0: 2 played
	// 5 games in series of 3
}
