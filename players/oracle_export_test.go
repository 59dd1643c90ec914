package players

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// The oracle instruments of docs/admiral.md ("A ceiling: admiral that knows
// hirota's fleet"): research hooks that hand a player its enemy's true
// initial placement before the first action. They live in a test file, so
// no binary (the CLI, the server) can reach them; the harness is
// TestOracleCeiling (admiral_oracle_test.go).

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

// RevealEnemyToJG narrows a joint-greedy player's chart of the enemy fleet
// to pl, the enemy's true initial placement (the mirror instrument: hirota
// that knows admiral's fleet). Same contract as RevealEnemy.
func RevealEnemyToJG(p *JointGreedy, pl submarine.Placement) error {
	if len(pl) != len(p.rules.Fleet) {
		return fmt.Errorf("%w: %d cells for a fleet of %d", errReveal, len(pl), len(p.rules.Fleet))
	}
	var want uint64
	for i, c := range pl {
		want |= uint64(uint8(c)) << (8 * i)
	}
	if !p.enemy.keep(func(q uint64) bool { return q == want }) {
		return fmt.Errorf("%w: the chart does not hold %v", errReveal, pl)
	}
	return nil
}

// EnemyChart returns the placements a joint-greedy player's chart of the
// enemy fleet holds (packed: byte i = cell of ship i; read only).
func EnemyChart(p *JointGreedy) []uint64 { return p.enemy.pl }
