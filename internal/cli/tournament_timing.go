package cli

import (
	"fmt"
	"time"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/tournament"
)

// timeDecisions is kaisen tournament's tournament.Config.Timed: every
// family the games registry builds times its players' decisions
// (arena.Game.Timed for the games on the contract, arena.Submarine.Timed):
// each decision (an action, an answer in a game that asks) adds its
// duration to the seat's clock. Placements are not timed.
func timeDecisions(fam arena.Family, p1, p2 *tournament.Clock) (arena.Family, error) {
	if f, ok := fam.(interface {
		Timed(add1, add2 func(time.Duration)) arena.Family
	}); ok {
		return f.Timed(p1.Add, p2.Add), nil
	}
	return nil, fmt.Errorf("--timing: the players of the %s game cannot be timed", fam.Game())
}
