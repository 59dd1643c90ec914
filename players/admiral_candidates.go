package players

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
