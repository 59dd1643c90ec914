package bsoptimal

import (
	"cmp"
	"math"
	"slices"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Loss is a policy's excess over the optimum, split by the kind of
// position where its moves lose it (Regrets' decomposition): each part is
// the sum over the positions of that kind of reach × regret.
type Loss struct {
	Optimal, Policy float64
	// Hunt: positions without an unsunk hit; Target: with one.
	Hunt, Target float64
	// TieBreak: positions where one of the policy's tied cells is optimal
	// and another is not (the loss is in the tie-break); Choice: where
	// none of its cells is optimal.
	TieBreak, Choice float64
	// ByAfloat[k]: positions with k ships afloat.
	ByAfloat []float64
	// Positions is the number of positions the policy reaches; Losing,
	// those where its move costs more than 1e-9 shots.
	Positions, Losing int
	// Worst are the costliest positions, by reach × regret.
	Worst []Costly
}

// Costly is one position where the policy loses.
type Costly struct {
	Position       string // the marks, one row a line (battleship.Position.String)
	Reach, Regret  float64
	Chosen, Better []grid.Cell // the policy's cells; the optimal cells
}

// Cost is reach × regret: what the position costs the policy on average.
func (c Costly) Cost() float64 { return c.Reach * c.Regret }

// Losses walks the positions pol reaches (Regrets) and sums where its
// excess over the optimum comes from, keeping the worst costliest ones.
func (s *Solver) Losses(pol Policy, worst int) (*Loss, error) {
	l := &Loss{ByAfloat: make([]float64, len(s.rules.Fleet)+1)}
	type pending struct {
		v    Visit
		cost float64
	}
	var all []pending
	best, value, err := s.Regrets(pol, func(v Visit) {
		l.Positions++
		r := v.Regret()
		if r <= 1e-9 {
			return
		}
		l.Losing++
		cost := v.Reach * r
		if v.Knowledge.Damaged() {
			l.Target += cost
		} else {
			l.Hunt += cost
		}
		if slices.Min(v.Q) <= v.Best+eps {
			l.TieBreak += cost
		} else {
			l.Choice += cost
		}
		l.ByAfloat[v.Knowledge.Afloat()] += cost
		all = append(all, pending{v, cost})
	})
	if err != nil {
		return nil, err
	}
	l.Optimal, l.Policy = best, value
	slices.SortStableFunc(all, func(a, b pending) int { return cmp.Compare(b.cost, a.cost) })
	for _, p := range all[:min(worst, len(all))] {
		c := Costly{Position: p.v.Knowledge.Position().String(), Reach: p.v.Reach, Regret: p.v.Regret(), Chosen: p.v.Chosen}
		top := math.Inf(1)
		for cell := range p.v.Knowledge.Unknown().All() {
			if p.v.Knowledge.Count(cell) == 0 {
				continue
			}
			q, err := s.Q(p.v.Knowledge, cell)
			if err != nil {
				return nil, err
			}
			switch {
			case q < top-eps:
				top, c.Better = q, []grid.Cell{cell}
			case q <= top+eps:
				c.Better = append(c.Better, cell)
			}
		}
		l.Worst = append(l.Worst, c)
	}
	return l, nil
}
