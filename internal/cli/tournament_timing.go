package cli

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/tournament"
)

// timeDecisions is kaisen tournament's tournament.Config.Timed for the
// families the games registry builds: it wraps both players' factories so
// that each decision (an Act of the submarine game; of any game on the
// contract through arena.Game.Timed: a Battleship shot, an abilities
// action, answers included) adds its duration to the seat's clock.
// Placements are not timed.
func timeDecisions(fam arena.Family, p1, p2 *tournament.Clock) (arena.Family, error) {
	switch f := fam.(type) {
	case *arena.Submarine:
		t := *f
		t.P1.Factory, t.P2.Factory = timedSubmarine(f.P1.Factory, p1), timedSubmarine(f.P2.Factory, p2)
		return &t, nil
	case interface {
		Timed(add1, add2 func(time.Duration)) arena.Family
	}: // arena.Game: a game on the contract
		return f.Timed(p1.Add, p2.Add), nil
	}
	return nil, fmt.Errorf("--timing: the players of the %s game cannot be timed", fam.Game())
}

// subTimed wraps a submarine-game player and records the duration of every
// Act.
type subTimed struct {
	players.Player
	c *tournament.Clock
}

func (t *subTimed) Act() submarine.Action {
	start := time.Now()
	a := t.Player.Act()
	t.c.Add(time.Since(start))
	return a
}

// Explain passes the wrapped player's explanation on (an empty Decision when
// it has none).
func (t *subTimed) Explain() explain.Decision {
	if e, ok := t.Player.(explain.Explainer); ok {
		return e.Explain()
	}
	return explain.Decision{}
}

func timedSubmarine(f players.Factory, c *tournament.Clock) players.Factory {
	return func(rng *rand.Rand) players.Player { return &subTimed{Player: f(rng), c: c} }
}
