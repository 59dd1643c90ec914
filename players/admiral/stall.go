package admiral

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
// attack it): the stall rule's boldness only when our ship still wins the
// exchange that follows (hp > guard: after the hit it is our turn with
// hp-1 >= guard), never otherwise. Walking into the reach of a located ship
// at least as strong hands it the first shot of an exchange it then wins,
// and no stalling makes that acceptable.
func caution(bold float64, hp, guard int8) float64 {
	if hp > guard {
		return bold
	}
	return 1
}

// guards fills p.guard: for every cell, the largest hp of the enemy ships
// that guard it, 0 if none. A located ship (every placement of the pool
// agrees on its cell) guards the cells it can attack; with
// opponent.guard_share below 1, so does a ship that can attack the cell in
// at least that share of the pool's placements (confined to a few cells
// around it, as the answers "near" of our probes leave it).
func (p *planner) guards() {
	b := p.a.rules.Board
	clear(p.guard)
	share := p.a.cfg.Opponent.GuardShare
	for _, i := range p.pe.ships {
		hp := p.a.enemyHP[i]
		if c := p.pinnedEnemy(i); c != grid.None {
			for d := range b.Around(c).All() {
				p.guard[d] = max(p.guard[d], hp)
			}
			continue
		}
		if share >= 1 {
			continue
		}
		clear(p.guardOcc)
		for _, t := range p.pe.tup {
			p.guardOcc[cellOf(t, i)]++
		}
		need := share * float64(len(p.pe.tup))
		for d := range b.Usable().All() {
			n := 0
			for c := range b.Around(d).All() {
				n += p.guardOcc[c]
			}
			if float64(n) >= need {
				p.guard[d] = max(p.guard[d], hp)
			}
		}
	}
}

// threat is the probability that the best attack of our ships hits next
// turn (with moves: after one more move of one ship) under the answer sl,
// counting a located enemy ship only for our ships stronger than it: the
// contact the stall rule seeks, never an approach that hands a located
// stronger (or equal) ship the first shot.
//
// Only the cells of the answer's support (sl.sup) can hold an enemy ship;
// one is in our ship's reach after a move when a destination (or the ship's
// own cell) is within 1 of it, Around being symmetric on usable cells.
func (p *planner) threat(sl *slot, x *exposure, us *submarine.Fleet, hit int, withMoves bool) float64 {
	r := p.a.rules
	inv := 1 / float64(sl.count)
	best := 0.0
	for j := range p.nf {
		if !us.Alive.Has(j) {
			continue
		}
		cells := sl.sup
		// A ship the enemy cannot place (below admiralSeen) may approach
		// unseen and take the first shot itself.
		seen := x.ship[j*p.size+int(us.Pos[j])] >= p.seen
		for _, i := range p.pe.ships {
			c := sl.pinned[i]
			if c == grid.None {
				continue
			}
			hp := p.a.enemyHP[i]
			if i == hit {
				hp--
			}
			if seen && us.HP[j] < hp+p.margin {
				cells.Remove(c)
			}
		}
		if !withMoves {
			cells = cells.Intersect(r.Board.Around(us.Pos[j]))
			for c := range cells.All() {
				best = max(best, float64(sl.occ[c])*inv)
			}
			continue
		}
		from := r.MoveTargets(us, j)
		from.Add(us.Pos[j])
		for c := range cells.All() {
			if r.Board.Around(c).Intersects(from) {
				best = max(best, float64(sl.occ[c])*inv)
			}
		}
	}
	return min(best, 1)
}

// strongest is the largest hp among the living ships of alive.
func strongest(hp *[submarine.MaxShips]int8, alive submarine.ShipMask) int8 {
	var m int8
	for i := range submarine.MaxShips {
		if alive.Has(i) {
			m = max(m, hp[i])
		}
	}
	return m
}
