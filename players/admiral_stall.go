package players

import (
	"math"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// The stall rule: getting bolder when nothing is hit, so games end.

// boldness is the factor on every cost of ours (leak, danger, hp and ships
// lost, the lost game) after a long stretch without hits: a stalled game is
// heading for a draw, which counts no more than a loss, so the player takes
// more and more risk to decide it.
func (p *planner) boldness() float64 {
	e := p.a.cfg.Endgame
	quiet := (p.a.actions - p.a.lastHit) / 2 // our turns without a hit
	if quiet < e.Stall {
		return 1
	}
	return math.Pow(e.Boldness, float64(quiet/e.Stall))
}

// caution is the factor on the cost of a hit taken by a ship of hp hp from
// an enemy ship of hp guard that is located (0: no located enemy ship can
// attack it): the stall rule's boldness, unless that located enemy ship is
// at least as strong. Walking into its reach gives it the first shot of an
// exchange it then wins, and no stalling makes that acceptable. Against an
// opponent recognised as a mover (p.margin 0) an equal ship may approach:
// such players flee or walk into our reach rather than wait for us.
func (p *planner) caution(bold float64, hp, guard int8) float64 {
	if hp >= guard+p.margin {
		return bold
	}
	return 1
}

// guards fills p.guard: for every cell, the largest hp of the located enemy
// ships (every placement of the pool agrees on their cell) that can attack
// it, 0 if none.
func (p *planner) guards() {
	b := p.a.rules.Board
	clear(p.guard)
	for _, i := range p.pe.ships {
		c := p.pinnedEnemy(i)
		if c == grid.None {
			continue
		}
		hp := p.a.enemyHP[i]
		for d := range b.Around(c).All() {
			p.guard[d] = max(p.guard[d], hp)
		}
	}
}

// threat is the probability that the best attack of our ships hits next
// turn (with moves: after one more move of one ship) under the answer sl,
// counting a located enemy ship only for our ships stronger than it: the
// contact the stall rule seeks, never an approach that hands a located
// stronger (or equal) ship the first shot.
func (p *planner) threat(sl *slot, us *submarine.Fleet, hit int, withMoves bool) float64 {
	r := p.a.rules
	inv := 1 / float64(sl.count)
	best := 0.0
	for j := range p.nf {
		if !us.Alive.Has(j) {
			continue
		}
		reach := r.Board.Around(us.Pos[j])
		if withMoves {
			for d := range r.MoveTargets(us, j).All() {
				reach = reach.Union(r.Board.Around(d))
			}
		}
		for _, i := range p.pe.ships {
			c := sl.pinned[i]
			if c == grid.None {
				continue
			}
			hp := p.a.enemyHP[i]
			if i == hit {
				hp--
			}
			if us.HP[j] < hp+p.margin {
				reach.Remove(c)
			}
		}
		for c := range reach.All() {
			best = max(best, float64(sl.occ[c])*inv)
		}
	}
	return min(best, 1)
}
