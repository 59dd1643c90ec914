package players

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Instruments for the tests of other packages (players/admiral's opponent
// model and its oracle ceiling, docs/admiral.md): they set or read a
// joint-greedy player's beliefs, which no game does. They are exported
// because those tests live in another package; no host calls them.

// errReveal is wrapped by the errors of a reveal that cannot apply.
var errReveal = errors.New("players: reveal the enemy placement")

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
	if !p.enemy.Keep(func(q uint64) bool { return q == want }) {
		return fmt.Errorf("%w: the chart does not hold %v", errReveal, pl)
	}
	return nil
}

// EnemyChart returns the placements a joint-greedy player's chart of the
// enemy fleet holds (packed: byte i = cell of ship i; read only).
func EnemyChart(p *JointGreedy) []uint64 { return p.enemy.Placements() }

// JointGreedyAt returns a new joint-greedy player of base's weights and
// rules (sharing base's tables), drawing from rng, in a position of the
// caller's choosing: its fleet me, the enemy's hp those of en, its chart of
// the enemy fleet the placements chart of en's living ships (packed as in
// players/chart) and its chart of its own fleet the one placement of me.
// players/admiral checks its model of joint-greedy against it.
func JointGreedyAt(base *JointGreedy, me, en submarine.Fleet, chart []uint64, rng *rand.Rand) *JointGreedy {
	p := newJointGreedy(base.sh, rng)
	var mine uint64
	for i := range len(p.rules.Fleet) {
		if me.Alive.Has(i) {
			mine |= uint64(uint8(me.Pos[i])) << (8 * i)
		}
	}
	p.me, p.enemyHP = me, en.HP
	p.enemy.Set(chart, en.Alive)
	p.own.Set([]uint64{mine}, me.Alive)
	return p
}
