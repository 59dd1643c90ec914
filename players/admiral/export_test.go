package admiral

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// The oracle instrument of docs/admiral.md ("A ceiling: admiral that knows
// hirota's fleet"): a research hook that hands admiral its enemy's true
// initial placement before the first action. It lives in a test file, so
// no binary (the CLI, the server) can reach it; the harness is
// TestOracleCeiling (oracle_test.go). Its mirror for joint-greedy is
// players.RevealEnemyToJG.

// errReveal is wrapped by the errors of a reveal that cannot apply.
var errReveal = errors.New("players: reveal the enemy placement")

// RevealEnemy narrows a's beliefs of the enemy fleet (the exact joint belief
// and the per-ship sets) to pl, the enemy's true initial placement. Call it
// after both players placed and before the first action: from then on the
// normal answers keep the belief on the truth (its moves shift it, its
// sinkings drop ships). Everything else about a is unchanged.
func RevealEnemy(a *Admiral, pl submarine.Placement) error {
	if a.actions > 0 {
		return fmt.Errorf("%w: %d actions already observed", errReveal, a.actions)
	}
	if len(pl) != len(a.rules.Fleet) {
		return fmt.Errorf("%w: %d cells for a fleet of %d", errReveal, len(pl), len(a.rules.Fleet))
	}
	for i, c := range pl {
		if a.enemyJ != nil {
			if err := a.enemyJ.Restrict(i, grid.Of(c)); err != nil {
				return fmt.Errorf("%w: ship %d: %w", errReveal, i, err)
			}
		}
		a.enemyS.Restrict(i, grid.Of(c))
	}
	return nil
}
