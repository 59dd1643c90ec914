package bsplayers

import (
	"math/rand/v2"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Random ("bs-random") fires at a cell drawn uniformly from the usable cells
// it has not shot yet, and places its fleet uniformly (UniformPlacer).
type Random struct {
	rules  *battleship.Rules
	placer *bsbelief.UniformPlacer
	rng    *rand.Rand
	left   grid.Set // usable cells not shot yet
}

var _ Player = (*Random)(nil)

// NewRandom returns a random shooter for rules; placer may be shared between
// players.
func NewRandom(r *battleship.Rules, placer *bsbelief.UniformPlacer, rng *rand.Rand) *Random {
	return &Random{rules: r, placer: placer, rng: rng, left: r.Board.Usable()}
}

// Place implements Player.
func (p *Random) Place() battleship.Placement { return placeOrEmpty(p.placer, p.rng) }

// Shoot implements Player.
func (p *Random) Shoot() grid.Cell {
	n := p.left.Count()
	if n == 0 {
		return p.rules.Board.Usable().First()
	}
	return p.left.Nth(p.rng.IntN(n))
}

// Observe implements Player.
func (p *Random) Observe(ev battleship.Event) {
	if ev.Mine && !ev.Illegal && p.rules.Board.IsUsable(ev.At) {
		p.left.Remove(ev.At)
	}
}
