package admiral

import (
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Candidate generation: every legal action of the turn.

// scored is one evaluated candidate.
type scored struct {
	act          submarine.Action
	oneply, deep float64
	pHit, ig     float64
	leak, detect float64
	// danger: the chance that the enemy can attack one of our ships where
	// it believes it is, after the action (unscaled by the stall rule).
	danger float64
}

// generate lists every legal action as a candidate: an attack on every cell
// of our reach, then a move of every ship to every cell of its row and
// column.
func (p *planner) generate(reach *grid.Set) {
	a := p.a
	p.cands = p.cands[:0]
	for c := range reach.All() {
		p.cands = append(p.cands, scored{act: submarine.AttackAt(c)})
	}
	for i := range p.nf {
		for d := range a.rules.MoveTargets(&a.me, i).All() {
			p.cands = append(p.cands, scored{act: submarine.MoveTo(i, d)})
		}
	}
}

// keepRetreat makes sure that the first k candidates (the ones the search
// plays out) hold a safest one: the candidate of least danger among them all
// (the first by the one-ply order on a tie). If none of the first k is as
// safe, that candidate is moved to position k and k+1 is returned. Without
// it, five attacks or approaches can crowd every retreat out of the search
// in exactly the positions where only a retreat avoids a lost exchange.
func (p *planner) keepRetreat(k int) int {
	if k >= len(p.cands) {
		return k
	}
	safest := 0
	for i := range p.cands {
		if p.cands[i].danger < p.cands[safest].danger {
			safest = i
		}
	}
	if safest < k {
		return k
	}
	c := p.cands[safest]
	copy(p.cands[k+1:safest+1], p.cands[k:safest])
	p.cands[k] = c
	return k + 1
}
